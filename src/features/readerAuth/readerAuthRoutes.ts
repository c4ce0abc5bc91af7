import type { Context, Middleware, Next } from 'koa';
import type { Clock } from '../../platform/Clock.js';
import { verifyPassword } from '../../platform/passwordHash.js';
import { RateLimiter } from '../../http/RateLimiter.js';
import type { ActiveSite } from '../deployments/ActiveSite.js';
import type { ReaderGateParts } from './createReaderGate.js';
import { readerCookieValue, readerSetCookie } from './readerCookie.js';
import type { ReaderSessions } from './ReaderSessions.js';
import { safeReturnTo } from './safeReturnTo.js';
import { SIGN_IN_PAGE_POLICY, signInPage } from './signInPage.js';
import { SIGN_IN_PATH, SIGN_OUT_PATH } from './signInPath.js';

/** Sign-in attempts per site and client address in one window (a shared password invites guessing). */
const ATTEMPTS = 10;
const WINDOW_MS = 15 * 60_000;
/** A sign-in form is a password and a path: anything larger is not one. */
const FORM_LIMIT_BYTES = 4096;
const DEFAULT_SESSION_HOURS = 12;

/** What the sign-in routes are built from. */
export interface ReaderAuthRouteDeps {
  gate: ReaderGateParts;
  sessions: ReaderSessions;
  activeSite: ActiveSite;
  clock: Clock;
  /** True when the appliance's public URL is https: cookies are then Secure. */
  httpsPublicUrl: () => boolean;
}

/**
 * `/_enclave/auth/sign-in` (the page, and the form's post) and `/_enclave/auth/sign-out` on
 * each site's own host, for sites with a password. Wrong passwords and floods are limited per
 * site and address; a post from another origin is refused (no sign-in forced on a reader).
 */
export function readerAuthRoutes(deps: ReaderAuthRouteDeps): Middleware {
  const limiter = new RateLimiter('reader-sign-in', ATTEMPTS, WINDOW_MS, deps.clock);
  return async function readerAuthMiddleware(ctx: Context, next: Next): Promise<void> {
    if (ctx.path !== SIGN_IN_PATH && ctx.path !== SIGN_OUT_PATH) return next();
    const domain = deps.activeSite.current(ctx.hostname)?.domain;
    const setting = domain ? deps.gate.settingFor(domain) : null;
    if (!domain || !setting) return next();
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Security-Policy', SIGN_IN_PAGE_POLICY);
    const secure = ctx.secure || deps.httpsPublicUrl();
    if (ctx.method === 'POST' && !sameOrigin(ctx)) return page(ctx, 403, domain, '/', 'This form was sent from another site.');
    if (ctx.path === SIGN_OUT_PATH) {
      if (ctx.method !== 'POST' && ctx.method !== 'GET') return next();
      const cookie = readerCookieValue(ctx.get('Cookie'));
      const session = cookie ? deps.sessions.verify(cookie, domain, setting.passwordHash) : null;
      if (session) deps.sessions.signOut(session);
      deps.gate.forget();
      ctx.set('Set-Cookie', readerSetCookie('', 0, secure));
      ctx.redirect(SIGN_IN_PATH);
      ctx.status = 303;
      return;
    }
    if (ctx.method === 'GET' || ctx.method === 'HEAD') return page(ctx, 200, domain, safeReturnTo(ctx.query.returnTo));
    if (ctx.method !== 'POST') return next();
    const form = await readForm(ctx);
    const returnTo = safeReturnTo(form?.get('returnTo'));
    const decision = limiter.consume(`${domain}|${ctx.ip}`);
    if (!decision.allowed) {
      ctx.set('Retry-After', String(decision.resetSeconds));
      return page(ctx, 429, domain, returnTo, 'Too many sign-in attempts from here. Try again later.');
    }
    const password = form?.get('password') ?? '';
    if (!(await verifyPassword(password, setting.passwordHash))) return page(ctx, 401, domain, returnTo, 'That password is not right.');
    const hours = setting.sessionHours ?? DEFAULT_SESSION_HOURS;
    const expiresAt = deps.clock.now().getTime() + hours * 3_600_000;
    ctx.set('Set-Cookie', readerSetCookie(deps.sessions.issue(domain, setting.passwordHash, [], expiresAt), hours * 3600, secure));
    ctx.redirect(returnTo);
    ctx.status = 303;
  };
}

function page(ctx: Context, status: number, domain: string, returnTo: string, message?: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = signInPage({ siteName: domain, returnTo, message });
}

/** A post's Origin (or, without one, its Referer) names this very host, or the browser sent neither. */
function sameOrigin(ctx: Context): boolean {
  const origin = ctx.get('Origin') || ctx.get('Referer');
  if (!origin || origin === 'null') return origin !== 'null';
  try {
    return new URL(origin).host === ctx.host;
  } catch {
    return false;
  }
}

/** The url-encoded form of a post, or null when it is not one or too large. */
async function readForm(ctx: Context): Promise<URLSearchParams | null> {
  if (!ctx.is('application/x-www-form-urlencoded')) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT_BYTES) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
