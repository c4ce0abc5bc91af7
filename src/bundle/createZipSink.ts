import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { sortedFiles, type BundleSink } from './BundleSink.js';
import { DEFLATED, type EntryContent, type ZipEntryData } from './prepareZipEntry.js';
import { prepareStreamedEntry } from './prepareStreamedEntry.js';
import { SpillFile, type SpillSlice } from './SpillFile.js';
import { writeZipArchive, type WrittenArchive } from './writeZipArchive.js';
import { ZipEntryCompressor } from './ZipEntryCompressor.js';
import { writeManifest } from './bundleManifest.js';

/** The same bytes as a Buffer, without a copy (entries come back from the thread as plain Uint8Arrays). */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** An entry's compressed bytes: in memory, or in the spill file. */
type Stored = ZipEntryData | (Omit<ZipEntryData, 'data'> & { spilled: SpillSlice });

/** What packing produced. */
export type PackedBundle = WrittenArchive;

/** A sink that builds a zip; `finish` writes it. */
export interface ZipSink extends BundleSink {
  /**
   * Writes the archive to `zipPath` (beside it first, fsynced and renamed, so a crash never
   * leaves a half zip under the final name). Entries are sorted by path and dated `now`, so
   * the zip depends only on the content, not on the order pages finished in.
   */
  finish(zipPath: string, now: Date): Promise<PackedBundle>;
  /**
   * Stops the compression thread; later writes are prepared on the calling thread. A scratch file
   * is removed by `finish` only: an export that fails leaves it in its run folder, which the
   * queue removes with the rest of the run.
   */
  close(): Promise<void>;
}

/**
 * Packs the bundle as it is rendered: each file is deflated the moment it arrives and only its
 * compressed bytes are kept, so no site folder is ever written, read back and packed. With
 * `thread`, entries are prepared on a thread of their own (see ZipEntryCompressor) while
 * rendering goes on. With `spillPath`, compressed entries wait in that scratch file rather than
 * in memory (see SpillFile). `finish` streams the archive out entry by entry (writeZipArchive)
 * and removes the scratch file.
 */
// size: a factory: most lines are the small closures it returns, which share its private state
export function createZipSink(options: { thread?: boolean; spillPath?: string } = {}): ZipSink {
  const compressor = new ZipEntryCompressor(options.thread ?? false);
  const spill = options.spillPath ? new SpillFile(options.spillPath) : null;
  const entries = new Map<string, Stored>();
  /** The newest write of each path: a rewrite may finish before the write it replaces. */
  const latest = new Map<string, number>();
  /** The newest write of each path still being prepared, so `read` sees a file written just before. */
  const preparing = new Map<string, Promise<void>>();
  let writes = 0;
  const files = () => sortedFiles([...entries.values()].map((e) => e.file));

  /** Records the newest write of `rel` once its entry is ready (in the scratch file, with one). */
  const store = (rel: string, prepared: Promise<ZipEntryData>) => {
    const seq = ++writes;
    latest.set(rel, seq);
    const done = prepared.then((entry) => {
      if (latest.get(rel) !== seq) return;
      if (!spill) return void entries.set(rel, entry);
      const { data, ...rest } = entry;
      entries.set(rel, { ...rest, spilled: spill.append(data) });
    });
    preparing.set(rel, done);
    return done.finally(() => {
      if (preparing.get(rel) === done) preparing.delete(rel);
    });
  };
  const put = (rel: string, content: EntryContent) => store(rel, compressor.prepare(rel, content));

  const sink: ZipSink = {
    write: put,
    writeParts: (rel, parts) => store(rel, prepareStreamedEntry(rel, parts)),
    copy: async (from, rel) => put(rel, await readFile(from)),
    async read(rel) {
      // Until the newest write of the path is in (another may be issued meanwhile).
      for (let pending = preparing.get(rel); pending; pending = preparing.get(rel)) await pending;
      const entry = entries.get(rel);
      if (!entry) throw Object.assign(new Error(`no file ${rel} in the bundle`), { code: 'ENOENT' });
      const data = bytesOf(entry);
      return entry.method === DEFLATED ? inflateRawSync(data) : data;
    },
    files,
    writeManifest: (fields) => writeManifest(sink, fields),
    close: () => compressor.close(),

    async finish(zipPath, now) {
      await Promise.all(preparing.values());
      await compressor.close();
      try {
        return await pack(zipPath, now);
      } finally {
        spill?.remove();
      }
    },
  };
  return sink;

  /** An entry's compressed bytes, in memory or read from the scratch file. */
  function bytesOf(entry: Stored): Buffer {
    if ('data' in entry) return asBuffer(entry.data);
    const bytes = Buffer.allocUnsafe(entry.spilled.length);
    spill!.readInto(entry.spilled, bytes);
    return bytes;
  }

  async function pack(zipPath: string, now: Date): Promise<PackedBundle> {
    const archive = files().map(({ path }) => {
      const stored = entries.get(path)!;
      const header = { path, method: stored.method, crc: stored.crc, size: stored.file.size };
      if ('data' in stored)
        return { ...header, compressedSize: stored.data.length, copyInto: (target: Uint8Array, at: number) => target.set(stored.data, at) };
      return {
        ...header,
        compressedSize: stored.spilled.length,
        copyInto: (target: Uint8Array, at: number) => spill!.readInto(stored.spilled, target, at),
      };
    });
    await mkdir(dirname(zipPath), { recursive: true });
    const written = await writeZipArchive(zipPath, archive, now);
    entries.clear();
    return written;
  }
}
