import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SigningKeyring } from '../../platform/SigningKeyring.js';

/** The signed parts of a bundle link, as they appear in its query string. */
export interface BundleLinkSignature {
  /** Expiry, Unix seconds. */
  expires: number;
  kid: string;
  sig: string;
}

/** A freshly signed link: its path, query parameters and expiry instant. */
export interface SignedBundleLink extends BundleLinkSignature {
  path: string;
  /** `path?expires=…&kid=…&sig=…`, to append to the public base URL. */
  pathAndQuery: string;
  expiresAt: Date;
}

/** Why a presented link was refused. */
export type BundleLinkRefusal = 'invalid signature' | 'link expired' | 'link retired';

/** The path of a bundle file (job ids and bundle file names are URL-safe by construction). */
export function bundleLinkPath(jobId: string, file: string): string {
  return `/bundles/${jobId}/${file}`;
}

/**
 * The signed string: method, path, expiry and key id, one per line. The host is deliberately
 * left out so a link stays valid behind a proxy or a renamed appliance; HEAD is verified as
 * GET so clients can probe a download with the link they were given.
 */
function canonical(method: string, path: string, expires: string, kid: string): string {
  return `${method === 'HEAD' ? 'GET' : method}\n${path}\n${expires}\n${kid}`;
}

function mac(secret: string, text: string): Buffer {
  return createHmac('sha256', Buffer.from(secret, 'base64')).update(text).digest();
}

/** Signs a GET link to `/bundles/<jobId>/<file>` with the keyring's active key, valid for `ttlSeconds`. */
export function signBundleLink(
  keyring: SigningKeyring,
  target: { jobId: string; file: string },
  now: Date,
  ttlSeconds: number,
): SignedBundleLink {
  const key = keyring.active();
  const path = bundleLinkPath(target.jobId, target.file);
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
  const sig = mac(key.secret, canonical('GET', path, String(expires), key.kid)).toString('base64url');
  const query = new URLSearchParams({ expires: String(expires), kid: key.kid, sig });
  return { path, expires, kid: key.kid, sig, pathAndQuery: `${path}?${query}`, expiresAt: new Date(expires * 1000) };
}

/**
 * Checks a presented link: the signature first (any change to method, path, expiry, key id or
 * signature → `invalid signature`; a key id since retired → `link retired`), then the expiry, so an attacker can't learn anything from
 * editing `expires`. Comparison is constant-time over equal-length buffers.
 */
export function verifyBundleLink(
  keyring: SigningKeyring,
  presented: { method: string; path: string; expires?: string; kid?: string; sig?: string },
  now: Date,
): { ok: true } | { ok: false; reason: BundleLinkRefusal } {
  const { expires, kid, sig } = presented;
  if (!expires || !kid || !sig || !/^\d{1,15}$/.test(expires) || !/^[A-Za-z0-9_-]+$/.test(sig))
    return { ok: false, reason: 'invalid signature' };
  const key = keyring.find(kid);
  // Compared as text, not decoded bytes: base64 decoding ignores trailing bits, so two different
  // strings could decode alike. An unknown key id still costs one MAC, so timing doesn't
  // reveal which ids exist.
  const given = Buffer.from(sig, 'latin1');
  const expected = Buffer.from(
    mac(key?.secret ?? '', canonical(presented.method, presented.path, expires, kid)).toString('base64url'),
    'latin1',
  );
  const equal = given.length === expected.length && timingSafeEqual(given, expected);
  // A key id that was retired can't be checked (its secret is gone), but the key ids are in the
  // links themselves, so saying so tells a holder nothing new and tells an operator why.
  if (!key && keyring.wasRetired(kid)) return { ok: false, reason: 'link retired' };
  if (!key || !equal) return { ok: false, reason: 'invalid signature' };
  if (Number(expires) * 1000 <= now.getTime()) return { ok: false, reason: 'link expired' };
  return { ok: true };
}
