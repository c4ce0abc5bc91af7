import { createHash } from 'node:crypto';
import { TEXT_FILE } from './SourceTexts.js';

/**
 * The source's hash and its non-text files' hash (see DocsSource), over each file's path and
 * SHA-256 rather than its bytes: a file an incremental export did not read (its stat unchanged,
 * its hash recorded) counts exactly as one it read. Its own module: the server hashes sources
 * with it and must not load the renderer's parsers.
 */
export function sourceHashes(files: readonly string[], fileHashes: ReadonlyMap<string, string>): { hash: string; otherHash: string } {
  const hash = createHash('sha256');
  const other = createHash('sha256');
  for (const rel of files) {
    // Length-prefixed path, then a fixed-length digest: no two lists of files hash alike.
    const part = `${Buffer.byteLength(rel)}:${rel}\0${fileHashes.get(rel)}`;
    hash.update(part);
    if (!TEXT_FILE.test(rel)) other.update(part);
  }
  return { hash: hash.digest('hex'), otherHash: other.digest('hex') };
}
