import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const PREFIX = 'enc_';
const BODY_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
/** `enc_` + 40 base62 + 6 base62 checksum characters. */
export const ADMIN_KEY_PATTERN = /^enc_[0-9A-Za-z]{46}$/;

/** A new random admin key: `enc_` + 40 base62 characters + a 6-character CRC32 checksum. */
export function generateAdminKey(): string {
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return PREFIX + body + checksumOf(body);
}

/**
 * True when `key` has the admin-key shape and its checksum matches, so a mistyped or
 * truncated key is refused without touching the store.
 */
export function isWellFormedAdminKey(key: string): boolean {
  if (!ADMIN_KEY_PATTERN.test(key)) return false;
  const body = key.slice(PREFIX.length, PREFIX.length + BODY_LENGTH);
  return key.slice(PREFIX.length + BODY_LENGTH) === checksumOf(body);
}

/** The SHA-256 (hex) under which a key is stored. */
export function hashAdminKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function checksumOf(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}
