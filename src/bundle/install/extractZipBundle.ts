import { createHash } from 'node:crypto';
import { open, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import { BundleRefusedError } from '../BundleRefusedError.js';
import { MANIFEST_PATH } from '../bundleManifest.js';
import { readExactly, readZipDirectory } from '../zip/readZipDirectory.js';
import { entryStages, locateEntryData, type LocatedEntry } from '../zip/zipEntryData.js';
import { checkManifestAgainstEntries, MAX_MANIFEST_BYTES, parseManifest } from './checkBundleManifest.js';
import type { ExtractedBundle } from './ExtractedBundle.js';
import { fileFingerprint, foldersPresent, type LinkBase, linkAll } from './LinkBase.js';
import { forEachConcurrently } from './forEachConcurrently.js';
import type { InstallPhase } from './InstallPhase.js';
import { makeTargetDirs, WRITE_FLAGS } from './makeTargetDirs.js';
import { runStages, SizeAndHashMeter } from './SizeAndHashMeter.js';
import { type BundleLimits, verifyBundleEntries } from './verifyBundle.js';

/** Files a layered version always holds itself (see linkUnchanged). */
const OWN_PREFIX = '_enclave/';
/** Entries written at once: enough to overlap disk latency, few enough to leave the thread pool to requests. */
const EXTRACT_CONCURRENCY = 3;
/**
 * Entries up to this size are inflated whole (inflateWhole) rather than through a stream
 * pipeline, whose setup cost about half a millisecond of CPU per file: most of a deploy that
 * changes thousands of pages (docs/performance.md, issue 32).
 */
const WHOLE_ENTRY_BYTES = 1024 * 1024;
const METHOD_DEFLATE = 8;
const inflateRawAsync = promisify(inflateRaw);

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
  phase: InstallPhase = () => {},
): Promise<ExtractedBundle> {
  const directory = await readZipDirectory(handle, size, limits.maxEntries);
  const { files } = verifyBundleEntries(directory.entries, limits);
  phase('zip directory');
  const manifestRecord = files.find((f) => f.name === MANIFEST_PATH);
  if (!manifestRecord) throw new BundleRefusedError(`manifest ${MANIFEST_PATH} is missing`);
  if (manifestRecord.uncompressedSize > MAX_MANIFEST_BYTES) throw new BundleRefusedError('manifest is too large');
  const [manifestEntry] = await locateEntryData(handle, [manifestRecord], directory.centralDirectoryOffset);
  const manifest = parseManifest(await readEntry(handle, manifestEntry));
  const expected = checkManifestAgainstEntries(manifest, files, pin);
  phase('manifest');

  const ensureDir = await makeTargetDirs(filesDir);
  const entries = files.filter((f) => f !== manifestRecord);
  let extractedBytes = 0;
  for (const entry of entries) extractedBytes += expected.get(entry.name)!.size;
  // Unchanged files are told from the central directory and the manifest alone: their stored
  // bytes are never read, so only the entries to extract have their local headers checked.
  const { linked, referred } = await linkUnchanged(
    entries.map((e) => e.name),
    expected,
    filesDir,
    ensureDir,
    base,
  );
  phase('links');
  // The manifest is located again with them, so no entry to extract may overlap it either.
  const toExtract = (
    await locateEntryData(handle, [manifestRecord, ...entries.filter((e) => !linked.has(e.name))], directory.centralDirectoryOffset)
  ).filter((l) => l.entry !== manifestRecord);
  phase('local headers');
  await forEachConcurrently(toExtract, EXTRACT_CONCURRENCY, async (item) => {
    const target = join(filesDir, item.entry.name);
    await ensureDir(dirname(target));
    await writeEntry(handle, item, target, expected.get(item.entry.name)!);
  });
  phase('extract');
  return { manifest, fileCount: entries.length, extractedBytes, linked, referred };
}

/**
 * Takes the entries `base` holds unchanged (same path, size and SHA-256) from it: links them, or
 * with `base.refer` leaves them where they are (when the folders holding them are all there;
 * else none is taken). Returns the names taken (`linked`) and, of those, the ones left in the
 * base (`referred`); those the base no longer has are left for the caller to write.
 */
async function linkUnchanged(
  entries: readonly string[],
  expected: ReadonlyMap<string, { size: number; sha256: string }>,
  filesDir: string,
  ensureDir: (dir: string) => Promise<void>,
  base: LinkBase | undefined,
): Promise<{ linked: Set<string>; referred: Set<string> }> {
  if (!base) return { linked: new Set(), referred: new Set() };
  const unchanged = entries.filter((name) => base.fingerprints.get(name) === fileFingerprint(expected.get(name)!));
  // A layered version keeps the bundle's own metadata (`_enclave/`: the report, the section
  // chunks, the access map) in its folder, linked when unchanged: other features read those by
  // path from there. Every other unchanged file stays where the base keeps it.
  const referred = base.refer ? unchanged.filter((name) => !name.startsWith(OWN_PREFIX)) : [];
  if (referred.length > 0 && !foldersPresent(base, referred)) return { linked: new Set(), referred: new Set() };
  const names = base.refer ? unchanged.filter((name) => name.startsWith(OWN_PREFIX)) : unchanged;
  await Promise.all([...new Set(names.map((name) => dirname(join(filesDir, name))))].map(ensureDir));
  const done = await linkAll(names.map((name) => ({ from: join(base.locate(name).filesDir, name), to: join(filesDir, name) })));
  return { referred: new Set(referred), linked: new Set([...referred, ...names.filter((_, i) => done[i])]) };
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
  if (item.entry.uncompressedSize <= WHOLE_ENTRY_BYTES) {
    const data = await inflateWhole(handle, item, label);
    if (createHash('sha256').update(data).digest('hex') !== want.sha256)
      throw new BundleRefusedError(`SHA-256 of ${label} does not match the manifest (file altered)`);
    await writeFile(target, data, { flag: WRITE_FLAGS, mode: 0o644 });
    return;
  }
  const meter = new SizeAndHashMeter(item.entry.uncompressedSize, label);
  const out = await open(target, WRITE_FLAGS, 0o644);
  // The stream owns the handle from here and closes it, on success or error. Durability is
  // the caller's step (one sync of the whole tree is far cheaper than an fsync per file).
  await runStages([...entryStages(handle, item), meter, out.createWriteStream({ highWaterMark: 256 * 1024 })], label);
  meter.assertComplete();
  if (meter.sha256() !== want.sha256) throw new BundleRefusedError(`SHA-256 of ${label} does not match the manifest (file altered)`);
}

/**
 * A small entry's content, read in one positional read and inflated in one call on the thread
 * pool, with the same caps as the streamed path: output beyond the declared size is refused
 * while inflating, damaged data is refused, and the size must be exact.
 */
async function inflateWhole(handle: FileHandle, item: LocatedEntry, label: string): Promise<Buffer> {
  const { entry, dataStart } = item;
  const stored = entry.compressedSize === 0 ? Buffer.alloc(0) : await readExactly(handle, dataStart, entry.compressedSize);
  let data = stored;
  if (entry.method === METHOD_DEFLATE && stored.length > 0) {
    try {
      data = await inflateRawAsync(stored, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      if (code === 'ERR_BUFFER_TOO_LARGE')
        throw new BundleRefusedError(
          `entry ${label} inflates beyond its declared size of ${entry.uncompressedSize} bytes (possible decompression bomb)`,
        );
      if (code.startsWith('Z_')) throw new BundleRefusedError(`corrupt compressed data in ${label}`);
      throw err;
    }
  }
  if (data.length !== entry.uncompressedSize)
    throw new BundleRefusedError(`entry ${label} holds ${data.length} bytes but declares ${entry.uncompressedSize}`);
  return data;
}
