import { constants } from 'node:fs';
import { copyFile, link } from 'node:fs/promises';
import type { FileExtras } from './FileExtras.js';

/**
 * The live version a new one is installed beside: files the new bundle holds unchanged (same
 * path, size and SHA-256 in both manifests) are hard-linked from it, with their gzip and brotli
 * variants, instead of being inflated, written and compressed again. The live version was
 * verified when it was installed, and versions are never written to once complete.
 */
export interface LinkBase {
  /** The live version's served tree and its precompressed variants. */
  filesDir: string;
  encodedDir: string;
  /** `size:sha256` by path, from the live version's manifest. */
  fingerprints: ReadonlyMap<string, string>;
  /** The live version's FileExtras by path. */
  extras: Readonly<Record<string, FileExtras>>;
}

/** The fingerprint LinkBase.fingerprints holds for a file. */
export function fileFingerprint(file: { size: number; sha256: string }): string {
  return `${file.size}:${file.sha256}`;
}

/**
 * Links `from` at `to` (which must not exist), or copies it where links are not possible (another
 * file system, a file system without them). False when `from` is gone: the caller writes the file.
 */
export async function linkOrCopy(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK' && code !== 'ENOTSUP') throw err;
  }
  try {
    await copyFile(from, to, constants.COPYFILE_EXCL);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
