import { closeSync, openSync, readSync } from 'node:fs';
import type { SectionChunk } from '../../../render/index.js';
import { parseChunk } from './buildSectionIndex.js';
import type { SectionIndex } from './SectionIndex.js';

/**
 * The chunks of sections `ids`, read from the chunk file the index was built from: the index keeps
 * no text, so a search holds only the hits it returns in memory. The reads are synchronous on
 * purpose: a few kilobytes of a file the page cache holds take microseconds, while a trip through
 * the thread pool per read cost milliseconds on a busy machine.
 */
export function readSections(file: string, index: SectionIndex, ids: number[]): SectionChunk[] {
  if (ids.length === 0) return [];
  const fd = openSync(file, 'r');
  try {
    return ids.map((id) => {
      const length = index.parts.lineLength[id];
      const buffer = Buffer.alloc(length);
      readSync(fd, buffer, 0, length, index.parts.lineStart[id]);
      return parseChunk(buffer.toString('utf8'));
    });
  } finally {
    closeSync(fd);
  }
}
