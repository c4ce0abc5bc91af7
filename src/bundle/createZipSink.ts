import AdmZip from 'adm-zip';
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { sortedFiles, type BundleSink } from '../render/output/BundleSink.js';
import { writeFileDurably } from '../store/writeFileDurably.js';
import { DEFLATED, type EntryContent, type ZipEntryData } from './prepareZipEntry.js';
import { ZipEntryCompressor } from './ZipEntryCompressor.js';

/** The same bytes as a Buffer, without a copy (entries come back from the thread as plain Uint8Arrays). */
const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** What packing produced. */
export interface PackedBundle {
  sizeBytes: number;
  sha256: string;
  entries: number;
}

/** A sink that builds a zip; `finish` writes it. */
export interface ZipSink extends BundleSink {
  /**
   * Writes the archive to `zipPath` (beside it first, fsynced and renamed, so a crash never
   * leaves a half zip under the final name). Entries are sorted by path and dated `now`, so
   * the zip depends only on the content, not on the order pages finished in.
   */
  finish(zipPath: string, now: Date): Promise<PackedBundle>;
  /** Stops the compression thread without writing anything (an export that failed). */
  close(): Promise<void>;
}

/**
 * Packs the bundle as it is rendered: each file is deflated the moment it arrives and only its
 * compressed bytes are kept, so no site folder is ever written, read back and packed. With
 * `thread`, entries are prepared on a thread of their own (see ZipEntryCompressor) while
 * rendering goes on. adm-zip still lays out the archive: each entry is added empty and hands
 * adm-zip its prepared bytes when asked for them (adm-zip calls `getCompressedData` once per
 * entry, in order, right before writing its headers), with the header fields adm-zip would
 * have computed itself.
 */
export function createZipSink(options: { thread?: boolean } = {}): ZipSink {
  const compressor = new ZipEntryCompressor(options.thread ?? false);
  const entries = new Map<string, ZipEntryData>();
  /** The newest write of each path: a rewrite may finish before the write it replaces. */
  const latest = new Map<string, number>();
  /** The newest write of each path still being prepared, so `read` sees a file written just before. */
  const preparing = new Map<string, Promise<void>>();
  let writes = 0;
  const files = () => sortedFiles([...entries.values()].map((e) => e.file));

  const put = (rel: string, content: EntryContent) => {
    const seq = ++writes;
    latest.set(rel, seq);
    const done = compressor.prepare(rel, content).then((entry) => {
      if (latest.get(rel) === seq) entries.set(rel, entry);
    });
    preparing.set(rel, done);
    return done.finally(() => {
      if (preparing.get(rel) === done) preparing.delete(rel);
    });
  };

  return {
    write: put,
    copy: async (from, rel) => put(rel, await readFile(from)),
    async read(rel) {
      // Until the newest write of the path is in (another may be issued meanwhile).
      for (let pending = preparing.get(rel); pending; pending = preparing.get(rel)) await pending;
      const entry = entries.get(rel);
      if (!entry) throw Object.assign(new Error(`no file ${rel} in the bundle`), { code: 'ENOENT' });
      const data = asBuffer(entry.data);
      return entry.method === DEFLATED ? inflateRawSync(data) : data;
    },
    files,
    close: () => compressor.close(),

    async finish(zipPath, now) {
      await Promise.all(preparing.values());
      await compressor.close();
      const zip = new AdmZip();
      for (const { path } of files()) {
        const prepared = entries.get(path)!;
        const entry = zip.addFile(path, Buffer.alloc(0), '', 0o644);
        entry.header.time = now;
        entry.getCompressedData = () => {
          entry.header.method = prepared.method;
          entry.header.crc = prepared.crc;
          entry.header.size = prepared.file.size;
          entry.header.compressedSize = prepared.data.length;
          return asBuffer(prepared.data);
        };
      }
      const archive = zip.toBuffer();
      entries.clear();
      await mkdir(dirname(zipPath), { recursive: true });
      await writeFileDurably(zipPath, archive, 0o600);
      return { sizeBytes: archive.length, sha256: createHash('sha256').update(archive).digest('hex'), entries: zip.getEntryCount() };
    },
  };
}
