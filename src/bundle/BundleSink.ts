import { createHash } from 'node:crypto';
import type { BundleManifest, ManifestFields } from './bundleManifest.js';

/** A piece of a streamed text file: text, or bytes already encoded as UTF-8 (kept from an earlier export). */
export type TextPiece = string | Uint8Array;

/** A file of the bundle as the manifest lists it. */
export interface BundleFile {
  path: string;
  size: number;
  sha256: string;
}

/**
 * Where a render puts the bundle's files: a folder (tests, conformance, local previews) or,
 * for export jobs, straight into the zip, so a site is never written out file by file only to
 * be read back, hashed and packed. Sizes and SHA-256s are taken as files arrive, which is
 * what the manifest lists.
 */
export interface BundleSink {
  /** Adds a file (strings are UTF-8). Writing a path again replaces it: anchor repairs rewrite pages. */
  write(rel: string, data: string | Uint8Array): Promise<void>;
  /**
   * Adds a text file given as pieces (UTF-8), taken as they come: for a large file assembled
   * while pages render (llms-full.txt, the search index), which never sits in memory whole. A
   * piece may come as UTF-8 bytes (a page's part kept from the last export), taken as they are.
   */
  writeParts(rel: string, parts: AsyncIterable<TextPiece>): Promise<void>;
  /**
   * Adds `file` as the previous bundle of the site holds it (same path, size and SHA-256),
   * without its bytes: for a page the incremental export knows came out the same. False when
   * this sink has no previous bundle or it holds something else; the caller then writes the file.
   */
  reuse?(file: BundleFile): boolean;
  /**
   * Hands over how the previous bundle's streamed files were deflated (`streamedRuns` of the
   * export that wrote it), so the files streamed next copy the runs that recur instead of
   * deflating them. Only a zip sink with a previous bundle uses it; call before `writeParts`.
   */
  reuseRuns?(layouts: readonly RunLayout[]): void;
  /** How the files streamed so far were deflated, for the next export's `reuseRuns` (a zip sink only). */
  streamedRuns?(): RunLayout[];
  /** Adds a copy of a file on disk. */
  copy(from: string, rel: string): Promise<void>;
  /** The bytes of a file written earlier. */
  read(rel: string): Promise<Buffer>;
  /** Every file written so far, sorted by path. */
  files(): BundleFile[];
  /** Writes `_enclave/manifest.json` last, listing every file written before it. */
  writeManifest(fields: ManifestFields): Promise<BundleManifest>;
}

/** How the manifest describes `bytes` stored at `path`. */
export function describeBytes(path: string, bytes: Uint8Array): BundleFile {
  return { path, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** Sorted by path, as manifests list files and zips order their entries. */
export function sortedFiles(files: Iterable<BundleFile>): BundleFile[] {
  return [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * One run of a streamed zip entry: the SHA-256 (base64) of its bytes, their length, and the
 * length of their deflated form. A run is deflated alone and ends with a full flush (byte-aligned,
 * nothing carried over), so its compressed bytes depend on its own bytes only and can be copied
 * from one archive into the next wherever the same bytes recur.
 */
export type DeflateRun = [sha256: string, size: number, compressedSize: number];

/**
 * How a streamed entry (a site-wide file: the search index, llms-full.txt, the section chunks)
 * was deflated: its runs in order, then a final empty block. Kept by the export beside its other records
 * (DeflateRunsRecord) and checked against the entry of the zip it describes before any run of it
 * is copied (PreviousRuns).
 */
export interface RunLayout {
  path: string;
  size: number;
  sha256: string;
  crc: number;
  compressedSize: number;
  runs: DeflateRun[];
}
