import AdmZip from 'adm-zip';
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { describeBytes, sortedFiles, type BundleFile, type BundleSink } from '../render/output/BundleSink.js';
import { writeFileDurably } from '../store/writeFileDurably.js';

/**
 * Deflate level. Measured on rendered pages: level 5 is within 1% of level 6's size for about
 * half its CPU time; 9 saves nothing more on HTML this repetitive.
 */
const LEVEL = 5;

/** Formats that are already compressed: deflating them again costs time and saves nothing. */
const STORED_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif', '.woff', '.woff2', '.zip', '.gz', '.br', '.mp4', '.webm', '.mp3', '.ogg']);
const STORED = 0;
const DEFLATED = 8;

interface ZipEntryData {
  /** What the manifest lists. */
  file: BundleFile;
  crc: number;
  method: typeof STORED | typeof DEFLATED;
  /** The entry's bytes as they go into the archive. */
  data: Buffer;
}

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
}

/**
 * Packs the bundle as it is rendered: each file is deflated the moment it arrives and only its
 * compressed bytes are kept, so no site folder is ever written, read back and packed. Deflating
 * synchronously is deliberate: zlib's async API costs about three times the CPU per file
 * (a stream and a thread-pool round trip each) and pages are small. adm-zip still lays out the
 * archive: each entry is added empty and hands adm-zip its prepared bytes when asked for them
 * (adm-zip calls `getCompressedData` once per entry, in order, right before writing its
 * headers), with the header fields adm-zip would have computed itself.
 */
export function createZipSink(): ZipSink {
  const entries = new Map<string, ZipEntryData>();
  const files = () => sortedFiles([...entries.values()].map((e) => e.file));

  const put = async (rel: string, bytes: Buffer) => {
    const file = describeBytes(rel, bytes);
    let method: ZipEntryData['method'] = STORED;
    let data = bytes;
    if (bytes.length > 0 && !STORED_EXTENSIONS.has(extname(rel).toLowerCase())) {
      const deflated = deflateRawSync(bytes, { level: LEVEL });
      // Tiny or incompressible files come out larger; those are stored as they are.
      if (deflated.length < bytes.length) {
        method = DEFLATED;
        // zlib may hand back a view of a larger output buffer; a copy keeps only the bytes.
        data = Buffer.from(deflated);
      }
    }
    entries.set(rel, { file, crc: crc32(bytes), method, data });
  };

  return {
    write: (rel, data) => put(rel, typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength)),
    copy: async (from, rel) => put(rel, await readFile(from)),
    async read(rel) {
      const entry = entries.get(rel);
      if (!entry) throw Object.assign(new Error(`no file ${rel} in the bundle`), { code: 'ENOENT' });
      return entry.method === DEFLATED ? inflateRawSync(entry.data) : entry.data;
    },
    files,

    async finish(zipPath, now) {
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
          return prepared.data;
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

