import type { ActiveReaderAuth } from '../../config/sections/readerAuth.js';
import type { Clock } from '../../platform/Clock.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import type { ReaderGate } from '../deployments/site/ReaderGate.js';
import { readerCookieValue } from './readerCookie.js';
import type { ReaderSession, ReaderSessions } from './ReaderSessions.js';
import { settingKey } from './settingKey.js';
import { signInPath } from './signInPath.js';

/** Verified cookies remembered; beyond it the memo starts over (a miss costs one HMAC). */
const MAX_REMEMBERED = 10_000;
/** The memo starts over this often, so a cookie of a key retired meanwhile is refused within a minute. */
const REMEMBER_MS = 60_000;

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
 * remembered until it expires), so a signed-in page view costs two map lookups.
 */
export function createReaderGate(deps: { sites: SiteDirectory; sessions: ReaderSessions; clock: Clock }): ReaderGateParts {
  const settings = new Map<string, ActiveReaderAuth | null>();
  let verified = new Map<string, ReaderSession | null>();
  let since = deps.clock.now().getTime();
  deps.sites.onChange(() => {
    settings.clear();
    verified = new Map();
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
    let session: ReaderSession | null = null;
    if (cookie) {
      const now = deps.clock.now().getTime();
      if (now - since > REMEMBER_MS || now < since) {
        verified = new Map();
        since = now;
      }
      const key = `${domain}\0${cookie}`;
      const known = verified.get(key);
      session = known === undefined ? deps.sessions.verify(cookie, domain, settingKey(setting)) : known;
      if (known === undefined) {
        if (verified.size >= MAX_REMEMBERED) verified = new Map();
        verified.set(key, session);
      }
      if (session && session.expiresAt <= now) session = null;
    }
    return { reader: session ? { groups: session.groups } : null, signInPath };
  };
  return { gate, settingFor, forget: () => (verified = new Map()) };
}
