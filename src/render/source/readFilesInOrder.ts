import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** A source file that could not be read; `file` is relative to the source folder (never a host path). */
export class SourceReadError extends Error {
  constructor(
    readonly file: string,
    readonly code: string,
  ) {
    super(`cannot read ${file} (${code})`);
  }
}

/** Files up to this size are read synchronously; larger ones (videos, PDFs) on the thread pool. */
const SYNC_MAX_BYTES = 1024 * 1024;
/** Synchronous reads hand the event loop back after this much, so a server hashing a site keeps answering. */
const YIELD_EVERY_BYTES = 4 * 1024 * 1024;
const YIELD_EVERY_FILES = 64;

/**
 * Reads `files` (relative to `dir`) and hands each to `consume` strictly in the given order.
 *
 * Docs sources are thousands of small files, and a promise-based read costs four trips through
 * the thread pool per file, several times the render thread's time of reading them
 * synchronously. So small files are read synchronously in batches, with a turn of the event
 * loop between batches (a batch holds the loop for a few milliseconds at most). A read that
 * fails rejects with a SourceReadError.
 */
export async function readFilesInOrder(dir: string, files: readonly string[], consume: (rel: string, data: Buffer) => void): Promise<void> {
  let bytes = 0;
  let count = 0;
  for (const rel of files) {
    let data: Buffer;
    try {
      data = await readOne(join(dir, rel));
    } catch (err) {
      throw new SourceReadError(rel, (err as NodeJS.ErrnoException).code ?? 'EIO');
    }
    consume(rel, data);
    bytes += data.length;
    if (++count >= YIELD_EVERY_FILES || bytes >= YIELD_EVERY_BYTES) {
      count = bytes = 0;
      await nextTurn();
    }
  }
}

function readOne(path: string): Buffer | Promise<Buffer> {
  const fd = openSync(path, 'r');
  try {
    return fstatSync(fd).size > SYNC_MAX_BYTES ? readFile(path) : readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
