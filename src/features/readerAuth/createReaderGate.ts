import type { ActiveReaderAuth } from '../../config/sections/readerAuth.js';
import type { Clock } from '../../platform/Clock.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import type { ReaderAtGate, ReaderGate } from '../deployments/site/ReaderGate.js';
import { readerCookieValue } from './readerCookie.js';
import type { ReaderSessions } from './ReaderSessions.js';
import { settingKey } from './settingKey.js';
import { signInPath } from './signInPath.js';

/** Verified cookies remembered; beyond it the memo starts over (a miss costs one HMAC). */
const MAX_REMEMBERED = 10_000;
/** The memo starts over this often, so a cookie of a key retired meanwhile is refused within a minute. */
const REMEMBER_MS = 60_000;

/** A request to a site with sign-in from a reader who is not signed in (one object for all of them). */
const NOT_SIGNED_IN: ReaderAtGate = Object.freeze({ reader: null, signInPath });

/** A verified cookie: its session's answer (one object per session, so memos keyed by the reader hold), until its expiry. */
interface Remembered {
  at: ReaderAtGate;
  expiresAt: number;
}

/** The reader gate and what the sign-in routes share with it. */
export interface ReaderGateParts {
  gate: ReaderGate;
  /** The site's sign-in setting for `domain` (null: open), cached until the site changes. */
  settingFor(domain: string): ActiveReaderAuth | null;
  /** Forgets verified cookies (after a sign-out). */
  forget(): void;
}

/**
 * The site handler's reader gate: per request, the site's sign-in setting (cached per domain,
 * dropped when a site changes) and the reader from the session cookie (verified once, then
 * remembered until it expires, the memo starting over after a sign-out, a site change or a
 * minute), so a signed-in page view costs a clock read and three map lookups, and the same
 * reader object comes back for the same session (VersionAccess and the views memoise on it).
 */
export function createReaderGate(deps: { sites: SiteDirectory; sessions: ReaderSessions; clock: Clock }): ReaderGateParts {
  const settings = new Map<string, ActiveReaderAuth | null>();
  // domain → cookie value → the verified session (null: refused); no key is built per request.
  let verified = new Map<string, Map<string, Remembered | null>>();
  let remembered = 0;
  let since = deps.clock.now().getTime();
  const forget = () => {
    verified = new Map();
    remembered = 0;
  };
  deps.sites.onChange(() => {
    settings.clear();
    forget();
  });
  const settingFor = (domain: string) => {
    let setting = settings.get(domain);
    if (setting === undefined) {
      const auth = deps.sites.find(domain)?.auth;
      setting = auth && auth.mode !== 'none' ? auth : null;
      settings.set(domain, setting);
    }
    return setting;
  };
  const gate: ReaderGate = (domain, cookieHeader) => {
    const setting = settingFor(domain);
    if (!setting) return null;
    const cookie = readerCookieValue(cookieHeader);
    if (!cookie) return NOT_SIGNED_IN;
    const now = deps.clock.now().getTime();
    if (now - since > REMEMBER_MS || now < since || remembered >= MAX_REMEMBERED) {
      forget();
      since = now;
    }
    let byCookie = verified.get(domain);
    if (!byCookie) verified.set(domain, (byCookie = new Map()));
    let known = byCookie.get(cookie);
    if (known === undefined) {
      const session = deps.sessions.verify(cookie, domain, settingKey(setting));
      known = session && { at: { reader: { groups: session.groups }, signInPath }, expiresAt: session.expiresAt };
      byCookie.set(cookie, known);
      remembered++;
    }
    return known && known.expiresAt > now ? known.at : NOT_SIGNED_IN;
  };
  return { gate, settingFor, forget };
}
