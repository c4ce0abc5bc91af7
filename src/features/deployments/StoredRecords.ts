import { readFile, stat } from 'node:fs/promises';
import { storedManifestSchema } from '../../bundle/bundleManifest.js';

/**
 * What tells one state of a file from another without reading it: device, inode, size, and mtime
 * and ctime in ns (a write in place that keeps the size and sets the mtime back still moves ctime).
 */
function statKey(s: { dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }): string {
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

/**
 * Parsed records of the last few installed versions (their manifests, their origins), by file
 * path, each kept with the stat of the file it stands for. A deploy over a live version read
 * that version's manifest and origins (tens of thousands of entries each at 10,000 pages: about
 * 70 and 40 ms of CPU to read, parse and validate, docs/performance.md "Fixed costs of a deploy,
 * h32l") although the install that made them held the same records a moment before, and the
 * version table read the origins just written. These files are written whole (a new inode) or
 * not at all once a version is complete, so a file whose device, inode, size, mtime and ctime
 * are unchanged is the one remembered; any other state (replaced, truncated, tampered with, gone)
 * misses and is read and validated afresh, as before. Callers must not modify what they get.
 */
export class StoredRecords<T> {
  private readonly entries = new Map<string, { key: string; value: T }>();

  /** `parse` validates a file's text (throwing on a bad one); `limit`: records kept (a deploy needs the live version's and the new one's). */
  constructor(
    private readonly parse: (text: string) => T,
    private readonly limit = 4,
  ) {}

  /** The record at `path`: remembered when its file is unchanged since, else read, validated and remembered. Throws as a read would. */
  async read(path: string): Promise<T> {
    const key = statKey(await stat(path, { bigint: true }));
    const known = this.entries.get(path);
    if (known && known.key === key) return known.value;
    const value = this.parse(await readFile(path, 'utf8'));
    this.keep(path, key, value);
    return value;
  }

  /** Remembers `value` as the content of the file at `path` (just written from it, durably); a stat failure remembers nothing. */
  async remember(path: string, value: T): Promise<void> {
    try {
      this.keep(path, statKey(await stat(path, { bigint: true })), value);
    } catch {
      this.entries.delete(path);
    }
  }

  private keep(path: string, key: string, value: T): void {
    this.entries.delete(path);
    this.entries.set(path, { key, value });
    // Oldest first in insertion order: drop from the front past the limit.
    for (const old of this.entries.keys()) {
      if (this.entries.size <= this.limit) break;
      this.entries.delete(old);
    }
  }
}

/** The process's installed manifests: installs remember what they wrote, the next install over that version reads it. */
export const storedManifests = new StoredRecords((text) => storedManifestSchema.parse(JSON.parse(text)));
