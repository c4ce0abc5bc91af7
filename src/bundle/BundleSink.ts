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
