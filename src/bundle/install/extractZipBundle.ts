import { open, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { BundleRefusedError } from '../BundleRefusedError.js';
import { MANIFEST_PATH } from '../bundleManifest.js';
import { readZipDirectory } from '../zip/readZipDirectory.js';
import { entryStages, locateEntryData, type LocatedEntry } from '../zip/zipEntryData.js';
import { checkManifestAgainstEntries, MAX_MANIFEST_BYTES, parseManifest } from './checkBundleManifest.js';
import type { ExtractedBundle } from './ExtractedBundle.js';
import { fileFingerprint, type LinkBase, linkAll } from './LinkBase.js';
import { forEachConcurrently } from './forEachConcurrently.js';
import { makeTargetDirs, WRITE_FLAGS } from './makeTargetDirs.js';
import { runStages, SizeAndHashMeter } from './SizeAndHashMeter.js';
import { type BundleLimits, verifyBundleEntries } from './verifyBundle.js';

/** Entries written at once: enough to overlap disk latency, few enough to leave the thread pool to requests. */
const EXTRACT_CONCURRENCY = 3;

/**
 * Verifies a bundle zip (already open, `size` bytes) and extracts it into `filesDir`. Nothing
 * is trusted: names and caps are checked on the raw central directory first, the manifest is
 * checked against the entry list and the pin, and each file is inflated by hand, entry by entry,
 * with its size capped while inflating and its SHA-256 compared with the manifest. Files are
 * not fsynced here: the caller syncs the finished tree once. All I/O and inflation is
 * asynchronous, so the event loop only ever runs short hashing steps.
 */
export async function extractZipBundle(
  handle: FileHandle,
  size: number,
  filesDir: string,
  limits: BundleLimits,
  pin: string | null,
  /** A version to link unchanged files from (see LinkBase). */
  base?: LinkBase,
): Promise<ExtractedBundle> {
  const directory = await readZipDirectory(handle, size, limits.maxEntries);
  const { files } = verifyBundleEntries(directory.entries, limits);
  const located = await locateEntryData(handle, files, directory.centralDirectoryOffset);
  const manifestEntry = located.find((l) => l.entry.name === MANIFEST_PATH);
  if (!manifestEntry) throw new BundleRefusedError(`manifest ${MANIFEST_PATH} is missing`);
  if (manifestEntry.entry.uncompressedSize > MAX_MANIFEST_BYTES) throw new BundleRefusedError('manifest is too large');
  const manifest = parseManifest(await readEntry(handle, manifestEntry));
  const expected = checkManifestAgainstEntries(manifest, files, pin);

  const ensureDir = await makeTargetDirs(filesDir);
  const toExtract = located.filter((l) => l.entry !== manifestEntry.entry);
  let extractedBytes = 0;
  for (const item of toExtract) extractedBytes += expected.get(item.entry.name)!.size;
  const linked = await linkUnchanged(toExtract, expected, filesDir, ensureDir, base);
  await forEachConcurrently(
    toExtract.filter((item) => !linked.has(item.entry.name)),
    EXTRACT_CONCURRENCY,
    async (item) => {
      const target = join(filesDir, item.entry.name);
      await ensureDir(dirname(target));
      await writeEntry(handle, item, target, expected.get(item.entry.name)!);
    },
  );
  return { manifest, fileCount: toExtract.length, extractedBytes, linked };
}

/**
 * Links the entries `base` holds unchanged (same path, size and SHA-256) from it; returns the
 * names linked. Those it no longer has are left for the caller to write.
 */
async function linkUnchanged(
  items: readonly LocatedEntry[],
  expected: ReadonlyMap<string, { size: number; sha256: string }>,
  filesDir: string,
  ensureDir: (dir: string) => Promise<void>,
  base: LinkBase | undefined,
): Promise<Set<string>> {
  if (!base) return new Set();
  const names = items.map((i) => i.entry.name).filter((name) => base.fingerprints.get(name) === fileFingerprint(expected.get(name)!));
  await Promise.all([...new Set(names.map((name) => dirname(join(filesDir, name))))].map(ensureDir));
  const done = await linkAll(names.map((name) => ({ from: join(base.filesDir, name), to: join(filesDir, name) })));
  return new Set(names.filter((_, i) => done[i]));
}

async function readEntry(handle: FileHandle, item: LocatedEntry): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const label = JSON.stringify(item.entry.name);
  const meter = new SizeAndHashMeter(item.entry.uncompressedSize, label);
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  await runStages([...entryStages(handle, item), meter, sink], label);
  meter.assertComplete();
  return Buffer.concat(chunks);
}

async function writeEntry(handle: FileHandle, item: LocatedEntry, target: string, want: { size: number; sha256: string }): Promise<void> {
  const label = JSON.stringify(item.entry.name);
  const meter = new SizeAndHashMeter(item.entry.uncompressedSize, label);
  const out = await open(target, WRITE_FLAGS, 0o644);
  // The stream owns the handle from here and closes it, on success or error. Durability is
  // the caller's step (one sync of the whole tree is far cheaper than an fsync per file).
  await runStages([...entryStages(handle, item), meter, out.createWriteStream({ highWaterMark: 256 * 1024 })], label);
  meter.assertComplete();
  if (meter.sha256() !== want.sha256) throw new BundleRefusedError(`SHA-256 of ${label} does not match the manifest (file altered)`);
}
