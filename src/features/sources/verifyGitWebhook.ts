import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../platform/AppError.js';

/** The git servers whose push webhooks are understood. */
export type GitServerKind = 'gitea' | 'gitlab' | 'github' | 'bitbucket-server';

/** A verified webhook delivery: a push to `branch` (at `after`), or something to acknowledge and ignore. */
export type GitWebhookEvent =
  | { kind: 'push'; server: GitServerKind; branch: string; after: string | null }
  | { kind: 'ignored'; server: GitServerKind; reason: string };

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Constant-time comparison of two strings (false when lengths differ). */
function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function hmacHex(secret: string, body: Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** A git commit id of all zeros: the branch was deleted. */
const NULL_SHA = /^0+$/;

/** The branch of a `refs/heads/…` ref, or null for tags and other refs. */
function branchOf(ref: unknown): string | null {
  return typeof ref === 'string' && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : null;
}

function parseJson(body: Buffer): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw AppError.badRequest('The webhook body must be a JSON object (set the webhook content type to application/json)');
}

/** A push body in the GitHub shape (`ref`, `after`), which Gitea/Forgejo and GitLab share. */
function githubStylePush(server: GitServerKind, payload: Record<string, unknown>): GitWebhookEvent {
  const branch = branchOf(payload.ref);
  if (!branch) return { kind: 'ignored', server, reason: 'not a branch push' };
  const after = typeof payload.after === 'string' ? payload.after : null;
  if (after && NULL_SHA.test(after)) return { kind: 'ignored', server, reason: `branch ${branch} was deleted` };
  return { kind: 'push', server, branch, after };
}

/** Bitbucket Server's `repo:refs_changed`: one entry per ref; the first branch update or add counts. */
function bitbucketPush(payload: Record<string, unknown>): GitWebhookEvent {
  const changes = Array.isArray(payload.changes) ? (payload.changes as Record<string, unknown>[]) : [];
  for (const change of changes) {
    const ref = change.ref as Record<string, unknown> | undefined;
    const branch = branchOf(ref?.id ?? change.refId);
    if (!branch || change.type === 'DELETE') continue;
    return { kind: 'push', server: 'bitbucket-server', branch, after: typeof change.toHash === 'string' ? change.toHash : null };
  }
  return { kind: 'ignored', server: 'bitbucket-server', reason: 'no branch was updated' };
}

/**
 * Checks a webhook delivery the way its server signs it and reads the pushed branch:
 * Gitea/Forgejo `X-Gitea-Signature`/`X-Forgejo-Signature` (hex HMAC-SHA256 of the body),
 * GitLab `X-Gitlab-Token` (the secret itself), GitHub Enterprise `X-Hub-Signature-256`
 * (`sha256=` HMAC), Bitbucket Server `X-Hub-Signature` (`sha256=` HMAC) with
 * `X-Event-Key`. A delivery no server's check accepts is a 401, before its body is read.
 */
// size: one branch per git server, each a few lines of header names and shapes
export function verifyGitWebhook(headers: Headers, body: Buffer, secret: string): GitWebhookEvent {
  const refuse = () => AppError.unauthorized('Webhook signature or token does not match this site’s webhook secret');
  const giteaSig = header(headers, 'x-forgejo-signature') ?? header(headers, 'x-gitea-signature');
  if (giteaSig !== undefined) {
    if (!same(giteaSig.toLowerCase(), hmacHex(secret, body))) throw refuse();
    const event = header(headers, 'x-forgejo-event') ?? header(headers, 'x-gitea-event');
    if (event !== 'push') return { kind: 'ignored', server: 'gitea', reason: `event ${event ?? '(none)'}` };
    return githubStylePush('gitea', parseJson(body));
  }
  const gitlabToken = header(headers, 'x-gitlab-token');
  if (gitlabToken !== undefined) {
    if (!same(gitlabToken, secret)) throw refuse();
    const event = header(headers, 'x-gitlab-event');
    if (event !== 'Push Hook') return { kind: 'ignored', server: 'gitlab', reason: `event ${event ?? '(none)'}` };
    return githubStylePush('gitlab', parseJson(body));
  }
  const eventKey = header(headers, 'x-event-key');
  if (eventKey !== undefined) {
    const sig = header(headers, 'x-hub-signature') ?? '';
    if (!same(sig.toLowerCase(), `sha256=${hmacHex(secret, body)}`)) throw refuse();
    if (eventKey !== 'repo:refs_changed') return { kind: 'ignored', server: 'bitbucket-server', reason: `event ${eventKey}` };
    return bitbucketPush(parseJson(body));
  }
  const githubSig = header(headers, 'x-hub-signature-256');
  if (githubSig !== undefined) {
    if (!same(githubSig.toLowerCase(), `sha256=${hmacHex(secret, body)}`)) throw refuse();
    const event = header(headers, 'x-github-event');
    if (event !== 'push') return { kind: 'ignored', server: 'github', reason: `event ${event ?? '(none)'}` };
    return githubStylePush('github', parseJson(body));
  }
  throw refuse();
}
