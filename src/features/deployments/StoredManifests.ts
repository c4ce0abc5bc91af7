import { readFile, stat } from 'node:fs/promises';
import { storedManifestSchema, type BundleManifest } from '../../bundle/bundleManifest.js';

/** What tells one state of a file from another without reading it: device, inode, size, mtime in ns. */
function statKey(s: { dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint }): string {
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`;
}

/**
 * The parsed manifests of the last few installed versions, by file path, each kept with the
 * stat of the file it stands for. A deploy over a live version reads that version's manifest
 * (tens of thousands of entries: about 70 ms of CPU to read, parse and validate at 10,000 pages,
 * docs/performance.md "Fixed costs of a deploy, h32l") although the install that made it held
 * the same manifest a moment before. A version's manifest is written once and never again, so a
 * file whose device, inode, size and mtime are unchanged is the one remembered; any other state
 * (replaced, truncated, tampered with, gone) misses and is read and validated afresh, as before.
 */
export class StoredManifests {
  private readonly entries = new Map<string, { key: string; manifest: BundleManifest }>();

  /** `limit`: manifests kept (the live version and the one being installed are all a deploy needs). */
  constructor(private readonly limit = 4) {}

  /** The manifest at `path`: remembered when its file is unchanged since, else read, validated and remembered. Throws as a read would. */
  async read(path: string): Promise<BundleManifest> {
    const key = statKey(await stat(path, { bigint: true }));
    const known = this.entries.get(path);
    if (known && known.key === key) return known.manifest;
    const manifest = storedManifestSchema.parse(JSON.parse(await readFile(path, 'utf8')));
    this.keep(path, key, manifest);
    return manifest;
  }

  /** Remembers `manifest` as the content of the file at `path` (just written from it, durably); a stat failure remembers nothing. */
  async remember(path: string, manifest: BundleManifest): Promise<void> {
    try {
      this.keep(path, statKey(await stat(path, { bigint: true })), manifest);
    } catch {
      this.entries.delete(path);
    }
  }

  private keep(path: string, key: string, manifest: BundleManifest): void {
    this.entries.delete(path);
    this.entries.set(path, { key, manifest });
    // Oldest first in insertion order: drop from the front past the limit.
    for (const old of this.entries.keys()) {
      if (this.entries.size <= this.limit) break;
      this.entries.delete(old);
    }
  }
}

/** The process's one cache: installs remember what they wrote, the next install over that version reads it. */
export const storedManifests = new StoredManifests();
