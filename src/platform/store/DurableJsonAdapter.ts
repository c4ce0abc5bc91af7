import { readFile } from 'node:fs/promises';
import type { Adapter } from 'lowdb';
import { StoreFileError } from './StoreFileError.js';
import { writeFileDurably } from './writeFileDurably.js';

/**
 * lowdb adapter whose writes are durable (temp file, fsync, rename, directory fsync) and whose
 * reads refuse a damaged file instead of replacing it with defaults. It remembers the text last
 * read or written, so a refused write can put memory back without touching the disk again.
 */
export class DurableJsonAdapter<T> implements Adapter<T> {
  private durableText: string | null = null;

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
      const data = JSON.parse(text) as T;
      this.durableText = text;
      return data;
    } catch (err) {
      throw new StoreFileError(this.path, `not valid JSON (${(err as Error).message})`);
    }
  }

  async write(data: T): Promise<void> {
    const text = JSON.stringify(data);
    await writeFileDurably(this.path, text);
    this.durableText = text;
  }

  /** True when `data` is exactly what is on disk (as last read or written). */
  matchesDisk(data: T): boolean {
    return this.durableText !== null && JSON.stringify(data) === this.durableText;
  }

  /** A fresh copy of what is on disk (as last read or written), or null before the file exists. */
  lastDurable(): T | null {
    return this.durableText === null ? null : (JSON.parse(this.durableText) as T);
  }
}
