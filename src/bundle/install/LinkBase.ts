import { constants, copyFileSync, linkSync, lstatSync } from 'node:fs';
import type { FileExtras } from './FileExtras.js';

/**
 * The live version a new one is installed beside: files the new bundle holds unchanged (same
 * path, size and SHA-256 in both manifests) are taken from it, with their gzip and brotli
 * variants, instead of being inflated, written and compressed again. The live version was
 * verified when it was installed, and versions are never written to once complete.
 *
 * Taken means hard-linked into the new version's folder, or, with `refer`, left where they are:
 * the new version is then layered (only its changed files in its own folder, the rest read from
 * the folders `locate` names), which costs nothing per unchanged file.
 */
export interface LinkBase {
  /** Where the base keeps a file's bytes and its variants (its own folders, or those of a version it is layered over). */
  locate(path: string): { filesDir: string; encodedDir: string };
  /** `size:sha256` by path, from the live version's manifest. */
  fingerprints: ReadonlyMap<string, string>;
  /** The live version's FileExtras by path. */
  extras: Readonly<Record<string, FileExtras>>;
  /** Leave unchanged files where they are (a layered version) instead of linking them. */
  refer?: boolean;
}

/** The fingerprint LinkBase.fingerprints holds for a file. */
export function fileFingerprint(file: { size: number; sha256: string }): string {
  return `${file.size}:${file.sha256}`;
}

/** Links made per turn of the event loop: a few milliseconds of work between the server's other events. */
const FILES_PER_TURN = 200;

/**
 * Links each `from` at its `to` (which must not exist), or copies it where links are not possible
 * (another file system, a file system without them); an entry is false when its `from` is gone
 * and the caller must write the file. Done synchronously in batches, not one thread-pool trip per
 * file: a link is a few microseconds of kernel work, and tens of thousands of trips cost seconds
 * of waiting on a busy machine (docs/performance.md, "Deploying a version").
 */
export async function linkAll(pairs: readonly { from: string; to: string }[]): Promise<boolean[]> {
  const done: boolean[] = [];
  for (let i = 0; i < pairs.length; i++) {
    done.push(linkOrCopySync(pairs[i].from, pairs[i].to));
    if (i % FILES_PER_TURN === FILES_PER_TURN - 1) await new Promise((resolve) => setImmediate(resolve));
  }
  return done;
}

/**
 * For a layered version: whether the folders `base` keeps files in are all still there (one
 * check per folder, not per file, so the install costs what changed). Each file in them was
 * verified against its manifest when its version was installed, and versions are never written
 * once complete; the served size is checked again whenever a file is read (SiteVersion).
 */
export function foldersPresent(base: LinkBase, paths: readonly string[]): boolean {
  const folders = new Set<string>();
  for (const path of paths) folders.add(base.locate(path).filesDir);
  return [...folders].every((dir) => lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() === true);
}

function linkOrCopySync(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'EMLINK' && code !== 'ENOTSUP') throw err;
  }
  try {
    copyFileSync(from, to, constants.COPYFILE_EXCL);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
