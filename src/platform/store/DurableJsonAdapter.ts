import { readFile } from 'node:fs/promises';
import type { Adapter } from 'lowdb';
import { StoreFileError } from './StoreFileError.js';
import { writeFileDurably } from './writeFileDurably.js';

/**
 * lowdb adapter whose writes are durable (temp file, fsync, rename, directory fsync) and whose
 * reads refuse a damaged file instead of replacing it with defaults.
 */
export class DurableJsonAdapter<T> implements Adapter<T> {
  constructor(private readonly path: string) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StoreFileError(this.path, (err as Error).message);
    }
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new StoreFileError(this.path, `not valid JSON (${(err as Error).message})`);
    }
  }

  async write(data: T): Promise<void> {
    await writeFileDurably(this.path, JSON.stringify(data));
  }
}
