import { BundleRefusedError } from '../BundleRefusedError.js';
import type { ZipEntryRecord } from '../zip/readZipDirectory.js';

/** The caps a bundle must stay under (from `config.staticExport`). */
export interface BundleLimits {
  maxBundleBytes: number;
  maxEntries: number;
  maxExtractedBytes: number;
  maxCompressionRatio: number;
}

/** The entries that passed the rules: regular files to extract and directory entries to ignore. */
export interface VerifiedEntries {
  files: ZipEntryRecord[];
  directories: string[];
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;
const MAX_NAME_LENGTH = 1024;
/** NAME_MAX of Linux file systems (ext4, xfs, tmpfs, overlayfs): longer names can't be created. */
const MAX_SEGMENT_BYTES = 255;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/**
 * Applies the safety rules to every entry of a bundle before a byte is extracted: names
 * (no `..`, absolute paths, drive letters, backslashes, NUL or control characters, empty
 * segments, segments over 255 bytes), file types (no symlinks, devices, FIFOs), duplicates (exact and case-insensitive,
 * and a file shadowing a directory), encryption, compression method, and the caps on entry
 * count, total uncompressed size and per-entry compression ratio.
 */
export function verifyBundleEntries(entries: ZipEntryRecord[], limits: BundleLimits): VerifiedEntries {
  if (entries.length > limits.maxEntries) throw new BundleRefusedError(`too many entries: ${entries.length} (limit ${limits.maxEntries})`);
  const files: ZipEntryRecord[] = [];
  const directories: string[] = [];
  const seen = new Set<string>();
  const seenFolded = new Map<string, string>();
  let total = 0;
  for (const entry of entries) {
    const label = JSON.stringify(entry.rawName.toString('latin1'));
    const isDirectory = entry.name.endsWith('/');
    const path = isDirectory ? entry.name.slice(0, -1) : entry.name;
    const problem = unsafeNameReason(path);
    if (problem) throw new BundleRefusedError(`unsafe entry name ${label}: ${problem}`);
    const type = fileTypeOf(entry);
    if (type === S_IFLNK) throw new BundleRefusedError(`symlink entry ${label} is not allowed`);
    if (type !== 0 && type !== S_IFREG && type !== S_IFDIR)
      throw new BundleRefusedError(`device or special file entry ${label} is not allowed`);
    if (type === S_IFDIR && !isDirectory) throw new BundleRefusedError(`entry ${label} is marked as a directory but named like a file`);
    if (entry.flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) throw new BundleRefusedError(`encrypted entry ${label} is not allowed`);
    if (seen.has(path)) throw new BundleRefusedError(`duplicate entry ${label}`);
    const folded = path.normalize('NFC').toLowerCase();
    const twin = seenFolded.get(folded);
    if (twin !== undefined) throw new BundleRefusedError(`entries ${JSON.stringify(twin)} and ${label} differ only in letter case`);
    seen.add(path);
    seenFolded.set(folded, path);
    if (isDirectory) {
      if (entry.uncompressedSize !== 0) throw new BundleRefusedError(`directory entry ${label} has content`);
      directories.push(path);
      continue;
    }
    if (entry.method !== METHOD_STORED && entry.method !== METHOD_DEFLATE)
      throw new BundleRefusedError(`entry ${label} uses unsupported compression method ${entry.method}`);
    if (entry.method === METHOD_STORED && entry.compressedSize !== entry.uncompressedSize)
      throw new BundleRefusedError(`stored entry ${label} declares different sizes`);
    if (entry.uncompressedSize > 0) {
      // A deflate stream for non-empty data is never empty; a zero here means a forged header.
      if (entry.compressedSize === 0) throw new BundleRefusedError(`entry ${label} declares content but no compressed data`);
      const ratio = entry.uncompressedSize / entry.compressedSize;
      if (ratio > limits.maxCompressionRatio) {
        throw new BundleRefusedError(
          `entry ${label} has compression ratio ${Math.round(ratio)}:1 (limit ${limits.maxCompressionRatio}:1; possible zip bomb)`,
        );
      }
    }
    total += entry.uncompressedSize;
    if (total > limits.maxExtractedBytes) throw new BundleRefusedError(`total uncompressed size exceeds ${limits.maxExtractedBytes} bytes`);
    files.push(entry);
  }
  // A file named like a parent directory of another file can't be extracted next to it.
  const fileNames = new Set(files.map((f) => f.name.normalize('NFC').toLowerCase()));
  for (const file of files) {
    const parts = file.name.normalize('NFC').toLowerCase().split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      if (fileNames.has(parent))
        throw new BundleRefusedError(`entry ${JSON.stringify(file.name)} lies inside the file ${JSON.stringify(parent)}`);
    }
  }
  return { files, directories };
}

/** Why `path` (a bundle-relative file path) is unsafe, or null when it is fine. */
export function unsafeNameReason(path: string): string | null {
  if (path.length === 0) return 'empty name';
  if (path.length > MAX_NAME_LENGTH) return 'name too long';
  if (path.includes('\0')) return 'contains a NUL byte';
  if (CONTROL_CHARS.test(path)) return 'contains control characters';
  if (path.includes('\\')) return 'contains a backslash';
  if (path.startsWith('/')) return 'absolute path';
  if (/^[A-Za-z]:/.test(path)) return 'starts with a drive letter';
  for (const segment of path.split('/')) {
    if (segment === '..') return 'contains a ".." segment';
    if (segment === '.') return 'contains a "." segment';
    if (segment === '') return 'contains an empty path segment';
    const bytes = Buffer.byteLength(segment, 'utf8');
    if (bytes > MAX_SEGMENT_BYTES)
      return `path segment of ${bytes} bytes is longer than the ${MAX_SEGMENT_BYTES}-byte limit for a file or folder name`;
  }
  return null;
}

function fileTypeOf(entry: ZipEntryRecord): number {
  // Unix writers keep st_mode in the high 16 bits. Other hosts normally leave them zero; a
  // non-zero value is read as a mode whatever the host byte says, so a symlink can't hide
  // behind a forged "made by" field.
  return (entry.externalAttributes >>> 16) & S_IFMT;
}
