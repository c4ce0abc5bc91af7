import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseChunk } from '../buildSectionIndex.js';
import { sectionEmbeddingText } from './sectionEmbeddingText.js';
import { VectorCache } from './VectorCache.js';

/**
 * The cache keys of every section in `chunkFiles` (the live versions' `sections.jsonl`): what
 * the vector cache must keep. Read line by line, so a large site costs no more memory than its
 * keys. A missing or unreadable file adds nothing (its version has no vectors to keep).
 */
export async function liveSectionKeys(chunkFiles: Iterable<string>): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const file of chunkFiles) {
    const input = createReadStream(file, { encoding: 'utf8' });
    try {
      for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
        if (line) keys.add(VectorCache.key(sectionEmbeddingText(parseChunk(line))));
      }
    } catch {
      // ENOENT (a bundle from before chunks existed) or a damaged file: nothing of it to keep.
    } finally {
      input.destroy();
    }
  }
  return keys;
}
