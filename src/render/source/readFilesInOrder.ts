import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A source file that could not be read; `file` is relative to the source folder (never a host path). */
export class SourceReadError extends Error {
  constructor(readonly file: string, readonly code: string) {
    super(`cannot read ${file} (${code})`);
  }
}

/** Reads kept in flight: enough to hide each read's round trip to the thread pool. */
const WINDOW = 16;

/**
 * Reads `files` (relative to `dir`) with several reads in flight and hands each to `consume`
 * strictly in the given order, so results that depend on order (a hash, warnings) are the same
 * as reading one file at a time, without the wait between reads. At most WINDOW files are held.
 * A read that fails rejects with a SourceReadError once its turn comes.
 */
export async function readFilesInOrder(dir: string, files: readonly string[], consume: (rel: string, data: Buffer) => void): Promise<void> {
  const pending: Promise<Buffer>[] = [];
  const start = (i: number) => {
    const read = readFile(join(dir, files[i]));
    // Handled when its turn comes; this only keeps an early failure from counting as unhandled.
    read.catch(() => {});
    pending[i] = read;
  };
  for (let i = 0; i < Math.min(WINDOW, files.length); i++) start(i);
  for (let i = 0; i < files.length; i++) {
    let data: Buffer;
    try {
      data = await pending[i];
    } catch (err) {
      throw new SourceReadError(files[i], (err as NodeJS.ErrnoException).code ?? 'EIO');
    }
    delete pending[i];
    if (i + WINDOW < files.length) start(i + WINDOW);
    consume(files[i], data);
  }
}
