import type { Context, Middleware, Next } from 'koa';
import type { ActiveSite } from '../deployments/ActiveSite.js';
import { finishJwtSignIn, JWT_CALLBACK_PATH, startJwtSignIn } from './jwtSignIn.js';
import { finishOidcSignIn, OIDC_CALLBACK_PATH, startOidcSignIn } from './oidcSignIn.js';
import { passwordSignIn } from './passwordSignIn.js';
import { readerCookieValue, readerSetCookie } from './readerCookie.js';
import { safeReturnTo } from './safeReturnTo.js';
import { settingKey } from './settingKey.js';
import { SIGN_IN_PAGE_POLICY } from './signInPage.js';
import { SIGN_IN_PATH, SIGN_OUT_PATH } from './signInPath.js';
import { type SignInDeps, type SignInRequest, signInAnswer } from './SignInRequest.js';

const PATHS = new Set([SIGN_IN_PATH, SIGN_OUT_PATH, JWT_CALLBACK_PATH, OIDC_CALLBACK_PATH]);

/**
 * Reader sign-in's routes on each site's own host, for sites with sign-in on:
 * `/_enclave/auth/sign-in` (the password form and its post; for JWT and OIDC, the way out to
 * the organisation's login or provider), their callbacks, and `/_enclave/auth/sign-out`.
 * A post from another origin is refused, so no page elsewhere can sign a reader in or out.
 */
export function readerAuthRoutes(deps: SignInDeps & { activeSite: ActiveSite }): Middleware {
  const password = passwordSignIn(deps.clock);
  return async function readerAuthMiddleware(ctx: Context, next: Next): Promise<void> {
    if (!PATHS.has(ctx.path) || !['GET', 'HEAD', 'POST'].includes(ctx.method)) return next();
    const domain = deps.activeSite.current(ctx.hostname)?.domain;
    const setting = domain ? deps.gate.settingFor(domain) : null;
    if (!domain || !setting) return next();
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Security-Policy', SIGN_IN_PAGE_POLICY);
    const request: SignInRequest = { ctx, deps, domain, setting, secure: ctx.secure || deps.httpsPublicUrl() };
    if (ctx.method === 'POST' && !sameOrigin(ctx)) return signInAnswer(request, 403, '/', 'This form was sent from another site.');
    if (ctx.path === SIGN_OUT_PATH) return signOut(request);
    if (ctx.path === JWT_CALLBACK_PATH && setting.mode === 'jwt') return finishJwtSignIn({ ...request, setting });
    if (ctx.path === OIDC_CALLBACK_PATH && setting.mode === 'oidc' && ctx.method === 'GET')
      return finishOidcSignIn({ ...request, setting });
    if (ctx.path !== SIGN_IN_PATH) return next();
    const returnTo = safeReturnTo(ctx.query.returnTo);
    if (setting.mode === 'password') {
      if (ctx.method === 'POST') return password({ ...request, setting });
      return signInAnswer(request, 200, returnTo);
    }
    if (ctx.method === 'POST') return next();
    if (setting.mode === 'jwt') return startJwtSignIn({ ...request, setting }, returnTo);
    return startOidcSignIn({ ...request, setting }, returnTo);
  };
}

/** Ends the session (its cookie is refused from now on, not only cleared), then to the provider's logout or the sign-in page. */
async function signOut(request: SignInRequest): Promise<void> {
  const { ctx, deps, domain, setting } = request;
  const cookie = readerCookieValue(ctx.get('Cookie'));
  const session = cookie ? deps.sessions.verify(cookie, domain, settingKey(setting)) : null;
  // On disk before the answer: a sign-out the reader saw must hold across a restart.
  if (session) await deps.sessions.signOut(session);
  deps.gate.forget();
  ctx.append('Set-Cookie', readerSetCookie('', 0, request.secure));
  ctx.status = 303;
  // Only the logout URL the site's setting names: never one a request carries.
  ctx.set('Location', setting.mode === 'oidc' && setting.logoutUrl ? setting.logoutUrl : SIGN_IN_PATH);
}

/**
 * A post comes from this very host. Browsers say so in `Sec-Fetch-Site`, also when the page's
 * `no-referrer` policy makes them send `Origin: null` (every exported page declares it, and the
 * sign-in page inherits it): that header must then read `same-origin`. Otherwise the Origin (or,
 * without one, the Referer) must name this host; a post with none of them passes (not a browser's).
 */
function sameOrigin(ctx: Context): boolean {
  const fetchSite = ctx.get('Sec-Fetch-Site');
  if (fetchSite && fetchSite !== 'same-origin') return false;
  const origin = ctx.get('Origin') || ctx.get('Referer');
  if (!origin) return true;
  if (origin === 'null') return fetchSite === 'same-origin';
  try {
    return new URL(origin).host === ctx.host;
  } catch {
    return false;
  }
}
