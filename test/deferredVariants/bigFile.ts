import type { ExecutionContext } from 'ava';

/** A site-wide text file over INLINE_COMPRESS_BYTES (about 2.4 MB), like llms-full.txt on a large site. */
export const BIG_PATH = 'llms-full.txt';

/** The big file's bytes for `version` (they differ between versions). */
export function bigFile(version: string): Buffer {
  return Buffer.from(
    Array.from({ length: 60_000 }, (_, i) => `Line ${i} of ${version}: ${(i * 7919) % 1000} words of the large file.\n`).join(''),
  );
}

/**
 * Asserts `actual` holds exactly `expected`'s bytes. ava's deepEqual walks a Buffer byte by byte
 * (seconds of CPU for the big file); Buffer.equals gives the same answer at memcmp speed.
 */
export function sameBytes(t: ExecutionContext, actual: Buffer | null, expected: Buffer, message?: string): void {
  const detail = actual === null ? 'nothing' : `${actual.length} bytes`;
  t.true(actual?.equals(expected) ?? false, `${message ?? 'bytes differ'}: got ${detail}, want ${expected.length} bytes`);
}
