import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../platform/Clock.js';
import type { SigningKeyring } from '../../platform/SigningKeyring.js';
import type { SignedOutSessions } from './SignedOutSessions.js';

/** A signed-in reader as a verified session cookie says. */
export interface ReaderSession {
  /** Session id (random), so a sign-out can refuse this cookie before it expires. */
  sid: string;
  groups: string[];
  /** Expiry, epoch milliseconds. */
  expiresAt: number;
}

/** What a cookie's payload holds (short keys: it travels with every request). */
interface Payload {
  /** Site domain the cookie was issued for: a cookie of one site is nothing on another. */
  h: string;
  /** Fingerprint of the site's sign-in setting: changing the password ends every session. */
  f: string;
  g: string[];
  exp: number;
  sid: string;
}

/** Keeps these signatures apart from the keyring's other uses (bundle links, feedback cursors). */
const PURPOSE = 'enclave reader session v1\0';

/**
 * Reader session cookies, signed with the appliance's signing keyring (HMAC-SHA-256 with the
 * active key; any key still on the ring verifies, so a rotation signs nobody out and a retired
 * key's cookies stop working). A cookie names its site and the site's sign-in setting, carries
 * the reader's groups and expiry, and is checked against a clock the caller injects.
 */
export class ReaderSessions {
  constructor(
    private readonly keyring: SigningKeyring,
    private readonly clock: Clock,
    /** Sessions ended by a sign-out (kept on disk: a restart does not bring them back). */
    private readonly signedOut: SignedOutSessions,
  ) {}

  /** A fresh cookie value for a reader of `domain` (sign-in setting `setting`), valid until `expiresAt` (ms). */
  issue(domain: string, setting: string, groups: readonly string[], expiresAt: number): string {
    const payload: Payload = {
      h: domain,
      f: fingerprint(setting),
      g: [...groups],
      exp: expiresAt,
      sid: randomBytes(12).toString('base64url'),
    };
    const key = this.keyring.active();
    const body = `v1.${key.kid}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    return `${body}.${sign(key.secret, body)}`;
  }

  /** The session `value` proves for `domain` under sign-in setting `setting`, or null (forged, expired, signed out, another site's). */
  verify(value: string, domain: string, setting: string): ReaderSession | null {
    const parts = value.split('.');
    if (parts.length !== 4 || parts[0] !== 'v1') return null;
    const key = this.keyring.find(parts[1]);
    if (!key) return null;
    const body = parts.slice(0, 3).join('.');
    const expected = Buffer.from(sign(key.secret, body));
    const given = Buffer.from(parts[3]);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let payload: Payload;
    try {
      payload = JSON.parse(Buffer.from(parts[2], 'base64url').toString('utf8')) as Payload;
    } catch {
      return null;
    }
    if (payload.h !== domain || payload.f !== fingerprint(setting)) return null;
    if (typeof payload.exp !== 'number' || payload.exp <= this.clock.now().getTime()) return null;
    if (!Array.isArray(payload.g) || this.signedOut.has(payload.sid)) return null;
    return { sid: payload.sid, groups: payload.g.filter((g) => typeof g === 'string'), expiresAt: payload.exp };
  }

  /** Refuses `session`'s cookie from now on (sign-out), though it is still signed and unexpired; resolves once that is on disk. */
  signOut(session: ReaderSession): Promise<void> {
    return this.signedOut.add(session.sid, session.expiresAt);
  }
}

function sign(secret: string, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'base64')).update(PURPOSE).update(body).digest('base64url');
}

function fingerprint(setting: string): string {
  return createHash('sha256').update(setting).digest('base64url').slice(0, 16);
}
