import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';
import type { BundleFile } from '../BundleSink.js';
import { MANIFEST_PATH, storedManifestSchema } from '../bundleManifest.js';
import { DEFLATED, STORED, type ZipEntryData } from './prepareZipEntry.js';
import { readExactly, readZipDirectory, type ZipEntryRecord } from './readZipDirectory.js';

const LOCAL_HEADER_SIZE = 30;
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

  /** Whether the previous bundle has a file at `rel` (only then is a new file worth hashing here). */
  has(rel: string): boolean {
    return this.hashes.has(rel);
  }

  /** The previous entry for `file` (same path, size, SHA-256 and CRC-32), ready to go into the new archive; else undefined. */
  reuse(file: BundleFile, crc: number): ZipEntryData | undefined {
    const entry = this.entries.get(file.path);
    if (!entry || this.hashes.get(file.path) !== `${file.size}:${file.sha256}`) return undefined;
    if (entry.crc32 !== crc || entry.uncompressedSize !== file.size || (entry.method !== DEFLATED && entry.method !== STORED))
      return undefined;
    try {
      const header = Buffer.alloc(LOCAL_HEADER_SIZE);
      if (readSync(this.fd, header, 0, LOCAL_HEADER_SIZE, entry.localHeaderOffset) !== LOCAL_HEADER_SIZE) return undefined;
      const start = entry.localHeaderOffset + LOCAL_HEADER_SIZE + header.readUInt16LE(26) + header.readUInt16LE(28);
      const data = new Uint8Array(entry.compressedSize);
      if (readSync(this.fd, data, 0, data.length, start) !== data.length) return undefined;
      return { file, crc, method: entry.method, data };
    } catch {
      return undefined;
    }
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
