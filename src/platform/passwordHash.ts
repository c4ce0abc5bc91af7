import { randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: string, keylen: number, options: object) => Promise<Buffer>;

/** scrypt's cost, block size and parallelism: about 50 ms and 16 MiB per check, as OWASP suggests for scrypt. */
const N = 16384;
const R = 8;
const P = 1;
const KEY_BYTES = 32;

/** How a stored hash reads: `scrypt$N$r$p$salt$key` (salt and key in base64url). */
export const PASSWORD_HASH = /^scrypt\$(\d{1,7})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{43})$/;

/** Hashes a password with scrypt and a fresh salt, for storing (never the password itself). */
export function hashPassword(password: string): string {
  const salt = randomBytes(16).toString('base64url');
  const key = scryptSync(password.normalize('NFC'), salt, KEY_BYTES, { N, r: R, p: P }).toString('base64url');
  return `scrypt$${N}$${R}$${P}$${salt}$${key}`;
}

/**
 * True when `password` matches `stored` (from hashPassword), compared in constant time; a
 * malformed hash matches nothing. Asynchronous: scrypt runs on libuv's pool, not the event loop.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = PASSWORD_HASH.exec(stored);
  if (!m) return false;
  const [n, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // A hash with absurd parameters (a tampered store) must not cost the server a gigabyte.
  if (n > 1 << 20 || r > 32 || p > 16) return false;
  const expected = Buffer.from(m[5], 'base64url');
  const actual = await scryptAsync(password.normalize('NFC'), m[4], expected.length, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 });
  return timingSafeEqual(actual, expected);
}
