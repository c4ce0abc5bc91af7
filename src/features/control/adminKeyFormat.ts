import { createHash, randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 40;
const CHECKSUM_LENGTH = 6;

/** What a key may call: the admin API, or only the assistant endpoints (search, page, answers, MCP). */
export type KeyKind = 'admin' | 'assistant';

/**
 * Each kind's prefix. An assistant key may sit in a page's source, so it must be told apart
 * from an admin key at a glance (and by a secret scanner): `enc_` is never followed by `_`.
 */
const PREFIXES: Record<KeyKind, string> = { admin: 'enc_', assistant: 'enc_asst_' };

/** `enc_` + 40 base62 + 6 base62 checksum characters. */
export const ADMIN_KEY_PATTERN = /^enc_[0-9A-Za-z]{46}$/;
/** `enc_asst_` + 40 base62 + 6 base62 checksum characters. */
export const ASSISTANT_KEY_PATTERN = /^enc_asst_[0-9A-Za-z]{46}$/;

/** A new random key of `kind`: its prefix + 40 base62 characters + a 6-character CRC32 checksum. */
export function generateAdminKey(kind: KeyKind = 'admin'): string {
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return PREFIXES[kind] + body + checksumOf(body);
}

/**
 * The kind of key `key` is when it has that kind's shape and its checksum matches, else null,
 * so a mistyped or truncated key is refused without touching the store.
 */
export function wellFormedKeyKind(key: string): KeyKind | null {
  const kind: KeyKind | null = ADMIN_KEY_PATTERN.test(key) ? 'admin' : ASSISTANT_KEY_PATTERN.test(key) ? 'assistant' : null;
  if (kind === null) return null;
  const start = PREFIXES[kind].length;
  const body = key.slice(start, start + BODY_LENGTH);
  return key.slice(start + BODY_LENGTH) === checksumOf(body) ? kind : null;
}

/** True when `key` has the admin-key shape and its checksum matches. */
export function isWellFormedAdminKey(key: string): boolean {
  return wellFormedKeyKind(key) === 'admin';
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
