/** A site-wide text file over INLINE_COMPRESS_BYTES (about 2.4 MB), like llms-full.txt on a large site. */
export const BIG_PATH = 'llms-full.txt';

/** The big file's bytes for `version` (they differ between versions). */
export function bigFile(version: string): Buffer {
  return Buffer.from(
    Array.from({ length: 60_000 }, (_, i) => `Line ${i} of ${version}: ${(i * 7919) % 1000} words of the large file.\n`).join(''),
  );
}
