import { extname } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { describeBytes, type BundleFile } from '../BundleSink.js';

/**
 * Deflate level: low, because the zip thread shares the second core with the garbage collector,
 * so its time slows rendering; slightly larger bundles are the cheaper side of that trade
 * (the levels compared are in docs/performance.md).
 */
export const DEFLATE_LEVEL = 2;

/** Formats that are already compressed: deflating them again costs time and saves nothing. */
const STORED_EXTENSIONS = new Set([
  '.png',
  '.jpg',
  '.jpeg',
  '.gif',
  '.webp',
  '.avif',
  '.woff',
  '.woff2',
  '.zip',
  '.gz',
  '.br',
  '.mp4',
  '.webm',
  '.mp3',
  '.ogg',
]);
export const STORED = 0;
export const DEFLATED = 8;

/** A file ready to go into the archive. */
export interface ZipEntryData {
  /** What the manifest lists. */
  file: BundleFile;
  crc: number;
  method: typeof STORED | typeof DEFLATED;
  /** The entry's bytes as they go into the archive, in a buffer of their own (it can be transferred between threads). */
  data: Uint8Array;
}

/** What a sink accepts: strings are UTF-8. */
export type EntryContent = string | Uint8Array;

/** Hashes, checksums and (unless already compressed, tiny or incompressible) deflates one file. */
export function prepareZipEntry(rel: string, content: EntryContent): ZipEntryData {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  const file = describeBytes(rel, bytes);
  const crc = crc32(bytes);
  if (bytes.length > 0 && !STORED_EXTENSIONS.has(extname(rel).toLowerCase())) {
    const deflated = deflateRawSync(bytes, { level: DEFLATE_LEVEL });
    // Tiny or incompressible files come out larger; those are stored as they are.
    if (deflated.length < bytes.length) return { file, crc, method: DEFLATED, data: ownCopy(deflated) };
  }
  return { file, crc, method: STORED, data: ownCopy(bytes) };
}

/** zlib and Buffer.from may hand back views of larger (pooled) buffers; a copy keeps only the bytes. */
function ownCopy(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}
