import type { OidcReaderAuth } from '../../config/sections/readerAuth.js';
import { OIDC_FLOW_MS, OidcSignInError } from '../../platform/oidc/OidcFlows.js';
import { safeReturnTo } from './safeReturnTo.js';
import { finishSignIn, type SignInRequest, signInAnswer } from './SignInRequest.js';

/** Where the provider sends the reader back, on the site's own origin. */
export const OIDC_CALLBACK_PATH = '/_enclave/auth/oidc-callback';
/** The cookie tying a sign-in's callback to the browser that started it (login CSRF). */
const FLOW_COOKIE = 'enclave_oidc_flow';

/**
 * Starts OpenID Connect sign-in (Authorization Code with PKCE, `state` and `nonce`; see
 * OidcFlows) and sends the reader to the provider. A provider that can't be reached gets a
 * clear page (503); nothing else on the site depends on it.
 */
export async function startOidcSignIn(request: SignInRequest<OidcReaderAuth>, returnTo: string): Promise<void> {
  const { ctx, setting, domain, deps } = request;
  let started: { url: string; state: string };
  try {
    started = await deps.oidc.start(setting, domain, `${ctx.protocol}://${ctx.host}${OIDC_CALLBACK_PATH}`, returnTo);
  } catch {
    return signInAnswer(request, 503, returnTo, 'The sign-in service cannot be reached right now. Try again in a moment.');
  }
  ctx.append(
    'Set-Cookie',
    `${FLOW_COOKIE}=${started.state}; Path=${OIDC_CALLBACK_PATH}; Max-Age=${OIDC_FLOW_MS / 1000}; HttpOnly; SameSite=Lax${request.secure ? '; Secure' : ''}`,
  );
  ctx.status = 302;
  ctx.set('Location', started.url);
}

/**
 * The provider's way back: the `state` must be one this appliance started, for this site, in
 * this browser (its flow cookie), and not used before; the ID token is checked (issuer,
 * audience, nonce) by openid-client. Groups come from the configured source and claim only.
 */
export async function finishOidcSignIn(request: SignInRequest<OidcReaderAuth>): Promise<void> {
  const { ctx, setting, domain } = request;
  ctx.append(
    'Set-Cookie',
    `${FLOW_COOKIE}=; Path=${OIDC_CALLBACK_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${request.secure ? '; Secure' : ''}`,
  );
  const state = typeof ctx.query.state === 'string' ? ctx.query.state : '';
  try {
    const done = await request.deps.oidc.finish(setting, domain, { state, querystring: ctx.querystring }, ctx.cookies.get(FLOW_COOKIE));
    // The ID token's own expiry is about the token (minutes), not the session: sessionHours rules.
    finishSignIn(request, done.groups, null, safeReturnTo(done.returnTo));
  } catch (err) {
    if (err instanceof OidcSignInError && err.reason === 'invalid-state')
      return signInAnswer(
        request,
        400,
        '/',
        'This sign-in link is not valid (it was used already, has expired, or was started elsewhere).',
      );
    await signInAnswer(request, 401, err instanceof OidcSignInError ? err.returnTo : '/', 'Sign-in did not succeed. Try again.');
  }
}
