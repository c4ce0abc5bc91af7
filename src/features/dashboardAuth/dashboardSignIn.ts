import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { DashboardOidc } from '../../config/sections/dashboardAuth.js';
import type { Clock } from '../../platform/Clock.js';
import { OIDC_FLOW_MS, type OidcFlows, OidcSignInError } from '../../platform/oidc/OidcFlows.js';
import type { SessionKeys } from '../control/SessionKeys.js';

/** Where the provider sends an administrator back, on the dashboard's own listener. */
export const DASHBOARD_CALLBACK_PATH = '/_enclave/admin/auth/callback';
/** Where the dashboard page collects the key minted for its sign-in. */
export const DASHBOARD_HANDOFF_PATH = '/_enclave/admin/auth/handoff';
const FLOW_COOKIE = 'enclave_admin_flow';
const HANDOFF_COOKIE = 'enclave_admin_handoff';
/** A minted key waits this long for its page to collect it. */
const HANDOFF_MS = 60_000;
/** The flows' owner name: a reader's callback can never finish a dashboard sign-in, or the reverse. */
const OWNER = 'dashboard';
const STALE_LINK = 'This sign-in link is not valid (used already, expired, or started elsewhere).';
/** How the keys list names a key minted for a dashboard sign-in (and how sign-out knows one). */
const KEY_NAME_PREFIX = 'dashboard sign-in: ';

/** The dashboard's OIDC sign-in: start, callback, key handoff and the sign-out of a session's key. */
export interface DashboardSignIn {
  start(ctx: Context): Promise<void>;
  callback(ctx: Context): Promise<void>;
  /** The key minted for this browser's sign-in, once; null when there is none (or it was collected). */
  handoff(ctx: Context): { key: string; projectId: string; expiresAt: string } | null;
  /** Revokes key `keyId` of `projectId` when a dashboard sign-in minted it (by its name); false otherwise. */
  signOut(projectId: string, keyId: string): Promise<boolean>;
}

/**
 * Dashboard sign-in through the organisation's OpenID Provider (the reader sign-in's relying
 * party, OidcFlows): only members of `adminGroup` get in, and what they get is an admin key of
 * their own, minted for the session (`sessionHours`, named "dashboard sign-in: <subject>" in the
 * keys list) and revoked at sign-out, so the admin API itself stays key-based. The key never
 * travels in a URL: the callback leaves it for the page behind a one-minute, single-use,
 * HttpOnly cookie, and the page collects it with a same-origin post.
 */
export function dashboardSignIn(setting: DashboardOidc, deps: { oidc: OidcFlows; keys: SessionKeys; clock: Clock }): DashboardSignIn {
  const waiting = new Map<string, { key: string; projectId: string; expiresAt: string; at: number }>();
  return {
    async start(ctx) {
      try {
        const redirectUri = `${ctx.protocol}://${ctx.host}${DASHBOARD_CALLBACK_PATH}`;
        const started = await deps.oidc.start(setting, OWNER, redirectUri, '/_enclave/admin');
        cookie(ctx, FLOW_COOKIE, started.state, DASHBOARD_CALLBACK_PATH, OIDC_FLOW_MS);
        ctx.status = 302;
        ctx.set('Location', started.url);
      } catch {
        refuse(ctx, 503, 'The sign-in service cannot be reached right now. Try again in a moment, or sign in with a key.');
      }
    },
    async callback(ctx) {
      cookie(ctx, FLOW_COOKIE, '', DASHBOARD_CALLBACK_PATH, 0);
      const state = typeof ctx.query.state === 'string' ? ctx.query.state : '';
      let who: { groups: string[]; subject: string };
      try {
        who = await deps.oidc.finish(setting, OWNER, { state, querystring: ctx.querystring }, ctx.cookies.get(FLOW_COOKIE));
      } catch (err) {
        if (err instanceof OidcSignInError && err.reason === 'invalid-state') return refuse(ctx, 400, STALE_LINK);
        return refuse(ctx, 401, 'Sign-in did not succeed.');
      }
      if (!who.groups.includes(setting.adminGroup))
        return refuse(
          ctx,
          403,
          'Your account is not in the group allowed to administer this appliance. Ask an administrator, or sign in with a key.',
        );
      const now = deps.clock.now().getTime();
      const expiresAt = new Date(now + setting.sessionHours * 3_600_000);
      const name = `${KEY_NAME_PREFIX}${who.subject}`.slice(0, 100);
      const made = await deps.keys.mint({ projectId: setting.projectId ?? null, name, scope: setting.scope, expiresAt });
      for (const [id, w] of waiting) if (now - w.at > HANDOFF_MS) waiting.delete(id);
      const handoff = randomBytes(24).toString('base64url');
      waiting.set(handoff, { key: made.key, projectId: made.projectId, expiresAt: expiresAt.toISOString(), at: now });
      cookie(ctx, HANDOFF_COOKIE, handoff, DASHBOARD_HANDOFF_PATH, HANDOFF_MS);
      ctx.status = 303;
      ctx.set('Location', '/_enclave/admin#signed-in');
    },
    handoff(ctx) {
      const id = ctx.cookies.get(HANDOFF_COOKIE) ?? '';
      cookie(ctx, HANDOFF_COOKIE, '', DASHBOARD_HANDOFF_PATH, 0);
      const found = waiting.get(id);
      waiting.delete(id);
      if (!found || deps.clock.now().getTime() - found.at > HANDOFF_MS) return null;
      return { key: found.key, projectId: found.projectId, expiresAt: found.expiresAt };
    },
    async signOut(projectId, keyId) {
      // Only a session's own key: a pasted key signs out of the page but stays valid.
      if (!deps.keys.nameOf(projectId, keyId)?.startsWith(KEY_NAME_PREFIX)) return false;
      await deps.keys.revoke(projectId, keyId);
      return true;
    },
  };
}

function cookie(ctx: Context, name: string, value: string, path: string, ms: number): void {
  ctx.append('Set-Cookie', `${name}=${value}; Path=${path}; Max-Age=${ms / 1000}; HttpOnly; SameSite=Lax${ctx.secure ? '; Secure' : ''}`);
}

/** A plain page saying why sign-in stopped (`message` is one of this file's own texts), with the way back. */
function refuse(ctx: Context, status: number, message: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard sign-in</title></head><body><h1>Dashboard sign-in</h1><p role="alert">${message}</p><p><a href="/_enclave/admin">Back to the dashboard</a></p></body></html>\n`;
}
