import type { Context } from 'koa';
import type { ActiveReaderAuth } from '../../config/sections/readerAuth.js';
import type { Clock } from '../../platform/Clock.js';
import type { OidcFlows } from '../../platform/oidc/OidcFlows.js';
import type { ReaderGateParts } from './createReaderGate.js';
import { readerSetCookie } from './readerCookie.js';
import type { ReaderSessions } from './ReaderSessions.js';
import { settingKey } from './settingKey.js';
import { SIGN_IN_PAGE_POLICY, signInPage, THEMED_SIGN_IN_PAGE_POLICY } from './signInPage.js';

/** What every sign-in handler shares: the appliance's parts and the site the request is for. */
export interface SignInDeps {
  gate: ReaderGateParts;
  sessions: ReaderSessions;
  clock: Clock;
  /** True when the appliance's public URL is https: cookies are then Secure. */
  httpsPublicUrl: () => boolean;
  /** OpenID Connect sign-ins in progress, and the providers they go to. */
  oidc: OidcFlows;
  /** The sign-in page's frame in the theme of the site live on a host (see signInShells), or null. */
  signInShell: (host: string) => Promise<string | null>;
}

/** One sign-in request on a site with reader sign-in. */
export interface SignInRequest<S extends ActiveReaderAuth = ActiveReaderAuth> {
  ctx: Context;
  deps: SignInDeps;
  domain: string;
  setting: S;
  /** Cookies set now carry Secure (the site is served over https). */
  secure: boolean;
}

const DEFAULT_SESSION_HOURS = 12;

/**
 * Signs the reader in: a session cookie for `groups`, expiring with the session setting or the
 * identity's own expiry (`expiresAt`, ms) whichever is sooner, and a 303 back to `returnTo`
 * (already checked to be a path on the site).
 */
export function finishSignIn(request: SignInRequest, groups: readonly string[], expiresAt: number | null, returnTo: string): void {
  const { ctx, deps, domain, setting, secure } = request;
  const now = deps.clock.now().getTime();
  const until = Math.min(now + (setting.sessionHours ?? DEFAULT_SESSION_HOURS) * 3_600_000, expiresAt ?? Number.POSITIVE_INFINITY);
  const value = deps.sessions.issue(domain, settingKey(setting), groups, until);
  ctx.append('Set-Cookie', readerSetCookie(value, (until - now) / 1000, secure));
  ctx.status = 303;
  ctx.set('Location', returnTo);
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = 'Signed in.\n';
}

/** Answers with the sign-in page (a password form, or a notice with a way to try again), in the site's theme when its export has the frame. */
export async function signInAnswer(request: SignInRequest, status: number, returnTo: string, message?: string): Promise<void> {
  const { ctx, domain, setting } = request;
  const shell = await request.deps.signInShell(ctx.hostname);
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', shell ? THEMED_SIGN_IN_PAGE_POLICY : SIGN_IN_PAGE_POLICY);
  ctx.body = signInPage({ siteName: domain, returnTo, message, password: setting.mode === 'password', shell });
}
