import { constants, copyFileSync, linkSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { FileExtras } from './FileExtras.js';

/**
 * The live version a new one is installed beside: files the new bundle holds unchanged (same
 * path, size and SHA-256 in both manifests) are taken from it, with their gzip and brotli
 * variants, instead of being inflated, written and compressed again. The live version was
 * verified when it was installed, and versions are never written to once complete.
 *
 * Taken means hard-linked into the new version's folder, or, with `refer`, left where they are:
 * the new version is then layered (only its changed files in its own folder, the rest read from
 * the folders `locate` names), which costs one size check per file instead of three links.
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

/** Links (or checks) made per turn of the event loop: a few milliseconds of work between the server's other events. */
const FILES_PER_TURN = 200;

/**
 * Links each `from` at its `to` (which must not exist), or copies it where links are not possible
 * (another file system, a file system without them); an entry is false when its `from` is gone
 * and the caller must write the file. Done synchronously in batches, not one thread-pool trip per
 * file: a link is a few microseconds of kernel work, and tens of thousands of trips cost seconds
 * of waiting on a busy machine (docs/performance.md, "Deploying a version").
 */
export function linkAll(pairs: readonly { from: string; to: string }[]): Promise<boolean[]> {
  return inBatches(pairs, (p) => linkOrCopySync(p.from, p.to));
}

/**
 * For a layered version, whether each file it would refer to is still where `base` keeps it, at
 * the size its manifest says, with the gzip and brotli variants `base.extras` lists: false where
 * any is gone or differs, and the caller must write that file (and compress it) instead. The
 * content was verified when its version was installed; this catches a folder damaged since.
 */
export function checkAll(base: LinkBase, files: readonly { path: string; size: number }[]): Promise<boolean[]> {
  return inBatches(files, ({ path, size }) => {
    const where = base.locate(path);
    const extras = base.extras[path] ?? {};
    return (
      sizeIs(join(where.filesDir, path), size) &&
      (extras.gzip === undefined || sizeIs(join(where.encodedDir, `${path}.gz`), extras.gzip)) &&
      (extras.br === undefined || sizeIs(join(where.encodedDir, `${path}.br`), extras.br))
    );
  });
}

async function inBatches<T>(items: readonly T[], each: (item: T) => boolean): Promise<boolean[]> {
  const done: boolean[] = [];
  for (let i = 0; i < items.length; i++) {
    done.push(each(items[i]));
    if (i % FILES_PER_TURN === FILES_PER_TURN - 1) await new Promise((resolve) => setImmediate(resolve));
  }
  return done;
}

function sizeIs(path: string, size: number): boolean {
  try {
    const info = lstatSync(path, { throwIfNoEntry: false });
    return info?.isFile() === true && info.size === size;
  } catch {
    return false;
  }
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
