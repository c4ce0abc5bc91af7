import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import type { JWTPayload } from 'jose';

/** A site's verification key: a JWKS jose fetches (and refreshes), or the configured PEM. */
type JwtKey = ReturnType<typeof import('jose').createRemoteJWKSet> | KeyObject;
import type { JwtReaderAuth } from '../../config/sections/readerAuth.js';
import { readForm } from './passwordSignIn.js';
import { readerGroups } from '../../platform/oidc/readerGroups.js';
import { safeReturnTo } from './safeReturnTo.js';
import { finishSignIn, type SignInRequest, signInAnswer } from './SignInRequest.js';

/** The callback page's one script: it posts the token from the URL's fragment (never sent to servers or logs) back. */
const FRAGMENT_SCRIPT =
  "var f=document.forms[0];f.elements.token.value=location.hash.slice(1);history.replaceState(null,'',location.pathname+location.search);f.submit();";
const FRAGMENT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(FRAGMENT_SCRIPT).digest('base64')}'`;
/** Where the organisation's login sends the reader back. */
export const JWT_CALLBACK_PATH = '/_enclave/auth/jwt-callback';

/** Keys by site setting: a JWKS fetched (and refreshed) by jose, or the configured PEM. */
const keys = new Map<string, JwtKey>();

/** Starts JWT sign-in: off to the organisation's login page, telling it where the reader was going. */
export function startJwtSignIn(request: SignInRequest<JwtReaderAuth>, returnTo: string): void {
  const url = new URL(request.setting.loginUrl);
  url.searchParams.set('redirect', returnTo);
  request.ctx.status = 302;
  request.ctx.set('Location', url.href);
}

/**
 * The login's way back: a token in the query or the form (posted by the fragment page), checked
 * with the configured keys and pinned algorithms (so `none`, and an HMAC keyed with the public
 * key, are refused), the issuer and audience when set, and an expiry (`expiresAt` of the hosted
 * `User` shape, or `exp`) in the future. Its `groups` become the reader's.
 */
export async function finishJwtSignIn(request: SignInRequest<JwtReaderAuth>): Promise<void> {
  const { ctx, setting } = request;
  const form = ctx.method === 'POST' ? await readForm(ctx) : null;
  const token = form?.get('token') ?? (typeof ctx.query.token === 'string' ? ctx.query.token : '');
  const returnTo = safeReturnTo(form?.get('redirect') ?? ctx.query.redirect);
  if (!token) return fragmentPage(request, returnTo);
  // jose is loaded on the first JWT sign-in: an appliance without JWT sites never pays for it.
  const jose = await import('jose');
  let payload: JWTPayload;
  try {
    payload = (
      await jose.jwtVerify(token, keyFor(jose, setting) as KeyObject, {
        algorithms: setting.algorithms,
        ...(setting.issuer ? { issuer: setting.issuer } : {}),
        ...(setting.audience ? { audience: setting.audience } : {}),
        currentDate: request.deps.clock.now(),
      })
    ).payload;
  } catch {
    return signInAnswer(request, 401, returnTo, 'The sign-in token was not accepted.');
  }
  const expiresAt = expiryOf(payload);
  if (expiresAt === null || expiresAt <= request.deps.clock.now().getTime())
    return signInAnswer(request, 401, returnTo, 'The sign-in token has no expiry in the future.');
  finishSignIn(request, readerGroups(payload.groups), expiresAt, returnTo);
}

function keyFor(jose: typeof import('jose'), setting: JwtReaderAuth): JwtKey {
  const id = setting.jwksUrl ?? setting.publicKeyPem ?? '';
  let key = keys.get(id);
  if (!key) {
    key = setting.jwksUrl
      ? jose.createRemoteJWKSet(new URL(setting.jwksUrl), { timeoutDuration: 5000 })
      : createPublicKey(setting.publicKeyPem ?? '');
    keys.set(id, key);
  }
  return key;
}

/** The token's expiry in ms: the sooner of `expiresAt` (seconds, the hosted User shape) and `exp`. */
function expiryOf(payload: JWTPayload): number | null {
  const times = [payload.expiresAt, payload.exp].filter((t): t is number => typeof t === 'number' && Number.isFinite(t));
  return times.length ? Math.min(...times) * 1000 : null;
}

/** A page whose script posts the URL fragment's token back here (tokens in fragments never reach a log). */
function fragmentPage(request: SignInRequest<JwtReaderAuth>, returnTo: string): void {
  const { ctx } = request;
  ctx.set('Content-Security-Policy', `default-src 'none'; script-src ${FRAGMENT_SCRIPT_HASH}; form-action 'self'; base-uri 'none'`);
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = `<!doctype html><meta charset="utf-8"><title>Signing in</title>
<form method="post" action="${JWT_CALLBACK_PATH}"><input type="hidden" name="token"><input type="hidden" name="redirect" value="${returnTo.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}"><noscript><p>Signing in needs JavaScript to read the token.</p></noscript></form>
<script>${FRAGMENT_SCRIPT}</script>`;
}
