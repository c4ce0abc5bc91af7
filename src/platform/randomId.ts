import { randomBytes } from 'node:crypto';

/** An opaque, random, prefixed id such as `se_3f9a0c1d2b4e5f60` (never sequential). */
export function randomId(prefix: string, bytes = 8): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}
