import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';
import type { BundleFile } from '../BundleSink.js';
import { MANIFEST_PATH, storedManifestSchema } from '../bundleManifest.js';
import { DEFLATED, STORED } from './prepareZipEntry.js';
import { readExactly, readZipDirectory, type ZipEntryRecord } from './readZipDirectory.js';

/**
 * An entry of the previous zip going into the new one as it is: its header fields, and its
 * compressed bytes, read from the previous zip only when the new archive is written (they never
 * pass through memory or the scratch file in between).
 */
export interface CopiedEntry {
  file: BundleFile;
  crc: number;
  method: number;
  compressedSize: number;
  /** Puts the entry's compressed bytes into `target` at `at`; throws when the previous zip no longer holds them. */
  copyInto(target: Uint8Array, at: number): void;
}

const LOCAL_HEADER_SIZE = 30;
const LOCAL_SIGNATURE = 0x04034b50;
/** Bytes of the previous zip read at once while entries are copied from it. */
const WINDOW_BYTES = 1 << 20;
/** A previous bundle bigger than this many entries is not worth reading for reuse. */
const MAX_ENTRIES = 500_000;

/**
 * The zip of a site's previous export, opened so the next export can copy the compressed bytes
 * of files that did not change instead of deflating them again. A file is reused only when the
 * previous manifest lists the same path with the same SHA-256 and size, and its zip entry the
 * same CRC-32: the archive then comes out exactly as a full pack would write it (deflate at one
 * level is deterministic). The zip stays open, so retention removing it meanwhile changes nothing.
 */
export class PreviousBundle {
  /**
   * The part of the previous zip read last. Copied entries are asked for in path order, the order
   * the previous zip holds them in, so a window read ahead serves the next ones too: two reads per
   * entry (header, data) were 40,000 system calls for a 10,000-page site.
   */
  private window = { start: 0, bytes: Buffer.alloc(0) };

  private constructor(
    private readonly fd: number,
    private readonly entries: Map<string, ZipEntryRecord>,
    private readonly hashes: Map<string, string>,
  ) {}

  /** Opens `zipPath`; null when it is missing or not a bundle this can read (the export then packs everything). */
  static async open(zipPath: string): Promise<PreviousBundle | null> {
    let handle;
    try {
      handle = await open(zipPath, 'r');
    } catch {
      return null;
    }
    try {
      const { size } = await handle.stat();
      const directory = await readZipDirectory(handle, size, MAX_ENTRIES);
      const entries = new Map(directory.entries.map((e) => [e.name, e]));
      const manifestEntry = entries.get(MANIFEST_PATH);
      if (!manifestEntry) throw new Error('no manifest');
      const raw = await readExactly(handle, await dataStart(handle, manifestEntry), manifestEntry.compressedSize);
      const text = (manifestEntry.method === DEFLATED ? inflateRawSync(raw) : raw).toString('utf8');
      const manifest = storedManifestSchema.parse(JSON.parse(text));
      const hashes = new Map(manifest.files.map((f) => [f.path, `${f.size}:${f.sha256}`]));
      // A synchronous descriptor: entries are copied as files arrive, from the sink's write path.
      const fd = openSync(zipPath, 'r');
      return new PreviousBundle(fd, entries, hashes);
    } catch {
      return null;
    } finally {
      await handle.close();
    }
  }

  /**
   * Whether the previous bundle has a file at `rel` of `size` bytes: only then is a new file worth
   * hashing here. (A title change re-assembles pages that mostly differ in length; hashing them
   * here as well as where they are deflated cost a second SHA-256 of every such page.)
   */
  has(rel: string, size: number): boolean {
    return this.entries.get(rel)?.uncompressedSize === size && this.hashes.has(rel);
  }

  /**
   * The previous entry of `file` when the previous manifest lists the same path, size and
   * SHA-256 (a file given by its description only: the caller knows its bytes are the same
   * without having them), ready to go into the new archive; else undefined.
   */
  lookup(file: BundleFile): CopiedEntry | undefined {
    const entry = this.entries.get(file.path);
    if (!entry || this.hashes.get(file.path) !== `${file.size}:${file.sha256}`) return undefined;
    if (entry.uncompressedSize !== file.size || (entry.method !== DEFLATED && entry.method !== STORED)) return undefined;
    return {
      file,
      crc: entry.crc32,
      method: entry.method,
      compressedSize: entry.compressedSize,
      copyInto: (target, at) => {
        const lost = () => new Error(`the previous bundle lost its entry ${file.path}`);
        const start = this.dataStartOf(entry);
        if (start === undefined) throw lost();
        if (this.readAt(target, at, entry.compressedSize, start) !== entry.compressedSize) throw lost();
      },
    };
  }

  /** The previous zip's entry at `rel` and what its manifest says of it (`size:sha256`), for a caller copying parts of its data (PreviousRuns). */
  entryOf(rel: string): { entry: ZipEntryRecord; listed: string | undefined } | undefined {
    const entry = this.entries.get(rel);
    return entry && { entry, listed: this.hashes.get(rel) };
  }

  /** Where the data of `entry` starts in the previous zip (after its local header); undefined when no header is there. */
  dataStartOf(entry: ZipEntryRecord): number | undefined {
    const header = Buffer.alloc(LOCAL_HEADER_SIZE);
    if (this.readAt(header, 0, LOCAL_HEADER_SIZE, entry.localHeaderOffset) !== LOCAL_HEADER_SIZE) return undefined;
    if (header.readUInt32LE(0) !== LOCAL_SIGNATURE) return undefined;
    return entry.localHeaderOffset + LOCAL_HEADER_SIZE + header.readUInt16LE(26) + header.readUInt16LE(28);
  }

  /**
   * `length` bytes at `position` of the previous zip, in a buffer of their own; undefined when the
   * zip ends first. Read directly, not through the window: the streamed files ask for their runs
   * in turns, from three places of the zip at once, and would make the window read a megabyte each time.
   */
  bytesAt(position: number, length: number): Buffer | undefined {
    const bytes = Buffer.allocUnsafe(length);
    return readSync(this.fd, bytes, 0, length, position) === length ? bytes : undefined;
  }

  /** Reads `length` bytes at `position` of the previous zip into `target` at `at`, through the window when they fit in one. */
  private readAt(target: Uint8Array, at: number, length: number, position: number): number {
    if (length > WINDOW_BYTES) return readSync(this.fd, target, at, length, position);
    let { start, bytes } = this.window;
    if (position < start || position + length > start + bytes.length) {
      bytes = Buffer.allocUnsafe(WINDOW_BYTES);
      bytes = bytes.subarray(0, readSync(this.fd, bytes, 0, WINDOW_BYTES, position));
      start = position;
      this.window = { start, bytes };
    }
    const available = Math.max(0, Math.min(length, start + bytes.length - position));
    bytes.copy(target, at, position - start, position - start + available);
    return available;
  }

  /** The previous entry for `file` (same path, size, SHA-256 and CRC-32), ready to go into the new archive; else undefined. */
  reuse(file: BundleFile, crc: number): CopiedEntry | undefined {
    const entry = this.lookup(file);
    return entry?.crc === crc ? entry : undefined;
  }

  /** Lets go of the zip. */
  close(): void {
    closeSync(this.fd);
  }
}

/** Where an entry's data starts: after its local header, name and extra field. */
async function dataStart(handle: Awaited<ReturnType<typeof open>>, entry: ZipEntryRecord): Promise<number> {
  const header = await readExactly(handle, entry.localHeaderOffset, LOCAL_HEADER_SIZE);
  return entry.localHeaderOffset + LOCAL_HEADER_SIZE + header.readUInt16LE(26) + header.readUInt16LE(28);
}
