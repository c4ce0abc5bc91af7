import { inflateRawSync } from 'node:zlib';
import { sortedFiles, type BundleFile } from '../BundleSink.js';
import { DEFLATED, type ZipEntryData } from './prepareZipEntry.js';
import type { CopiedEntry } from './PreviousBundle.js';
import type { SpillFile, SpillSlice } from './SpillFile.js';
import type { ArchiveEntry } from './writeZipArchive.js';

/** The same bytes as a Buffer, without a copy (entries come back from the thread as plain Uint8Arrays). */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** An entry's compressed bytes: in memory, in the spill file, or still in the previous zip. */
type Stored = ZipEntryData | (Omit<ZipEntryData, 'data'> & { spilled: SpillSlice }) | CopiedEntry;

/**
 * The compressed entries of a zip being built, by path: the newest write of each wins, even when
 * an older write finishes preparing after it. With a spill file, compressed bytes wait there
 * rather than in memory (see SpillFile).
 */
export class ZipEntryStore {
  private readonly entries = new Map<string, Stored>();
  /** The newest write of each path: a rewrite may finish before the write it replaces. */
  private readonly latest = new Map<string, number>();
  /** The newest write of each path still being prepared, so `read` sees a file written just before. */
  private readonly preparing = new Map<string, Promise<void>>();
  private writes = 0;

  constructor(private readonly spill: SpillFile | null) {}

  /** Records the newest write of `rel` once its entry is ready (in the scratch file, with one). */
  store(rel: string, prepared: Promise<ZipEntryData | CopiedEntry>): Promise<void> {
    const seq = ++this.writes;
    this.latest.set(rel, seq);
    const done = prepared.then((entry) => {
      if (this.latest.get(rel) !== seq) return;
      if (!this.spill || 'copyInto' in entry) return void this.entries.set(rel, entry);
      const { data, ...rest } = entry;
      this.entries.set(rel, { ...rest, spilled: this.spill.append(data) });
    });
    this.preparing.set(rel, done);
    return done.finally(() => {
      if (this.preparing.get(rel) === done) this.preparing.delete(rel);
    });
  }

  /** A file's content as written, once the newest write of it is in (another may be issued meanwhile). */
  async read(rel: string): Promise<Buffer> {
    for (let pending = this.preparing.get(rel); pending; pending = this.preparing.get(rel)) await pending;
    const entry = this.entries.get(rel);
    if (!entry) throw Object.assign(new Error(`no file ${rel} in the bundle`), { code: 'ENOENT' });
    const data = this.bytesOf(entry);
    return entry.method === DEFLATED ? inflateRawSync(data) : data;
  }

  /** Every file stored, sorted by path. */
  files(): BundleFile[] {
    return sortedFiles([...this.entries.values()].map((e) => e.file));
  }

  /** Settles once every write issued so far is prepared. */
  async settled(): Promise<void> {
    await Promise.all(this.preparing.values());
  }

  /** The archive's entries in path order, each copying its compressed bytes from memory or the scratch file. */
  archiveEntries(): ArchiveEntry[] {
    return this.files().map(({ path }) => {
      const stored = this.entries.get(path)!;
      const header = { path, method: stored.method, crc: stored.crc, size: stored.file.size };
      if ('copyInto' in stored) return { ...header, compressedSize: stored.compressedSize, copyInto: stored.copyInto };
      if ('data' in stored)
        return { ...header, compressedSize: stored.data.length, copyInto: (target: Uint8Array, at: number) => target.set(stored.data, at) };
      return {
        ...header,
        compressedSize: stored.spilled.length,
        copyInto: (target: Uint8Array, at: number) => this.spill!.readInto(stored.spilled, target, at),
      };
    });
  }

  /** Lets go of every entry (once the archive is written). */
  clear(): void {
    this.entries.clear();
  }

  /** An entry's compressed bytes, in memory or read from the scratch file. */
  private bytesOf(entry: Stored): Buffer {
    if ('data' in entry) return asBuffer(entry.data);
    if ('copyInto' in entry) {
      const bytes = Buffer.allocUnsafe(entry.compressedSize);
      entry.copyInto(bytes, 0);
      return bytes;
    }
    const bytes = Buffer.allocUnsafe(entry.spilled.length);
    this.spill!.readInto(entry.spilled, bytes);
    return bytes;
  }
}
