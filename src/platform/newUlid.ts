import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID (26 characters of Crockford base32): 48 bits of milliseconds from `now`, then 80
 * random bits. Ids sort by creation time, which is what thread listings page by.
 */
export function newUlid(now: Date): string {
  let time = now.getTime();
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[time % 32] + out;
    time = Math.floor(time / 32);
  }
  const random = randomBytes(10);
  // 80 bits in 16 characters of 5 bits each.
  let bits = 0n;
  for (const byte of random) bits = (bits << 8n) | BigInt(byte);
  let tail = '';
  for (let i = 0; i < 16; i++) {
    tail = CROCKFORD[Number(bits & 31n)] + tail;
    bits >>= 5n;
  }
  return out + tail;
}

/** True for a well-formed ULID (a thread id a client sends back). */
export function isUlid(value: string): boolean {
  return /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(value);
}
