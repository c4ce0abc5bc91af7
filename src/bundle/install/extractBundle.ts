import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform, Writable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';
import { BundleRefusedError } from '../BundleRefusedError.js';
import { bundleManifestSchema, MANIFEST_PATH, type BundleManifest } from '../bundleManifest.js';
import { forEachConcurrently } from './forEachConcurrently.js';
import { readExactly, readZipDirectory, type ZipEntryRecord } from '../zip/readZipDirectory.js';
import { verifyBundleEntries, type BundleLimits } from './verifyBundle.js';
import { fileFingerprint, type LinkBase, linkOrCopy } from './LinkBase.js';

/** What an extraction produced: the verified manifest (every listed file is on disk, intact). */
export interface ExtractedBundle {
  manifest: BundleManifest;
  fileCount: number;
  extractedBytes: number;
  /** Files linked (or copied) from the base version rather than extracted. */
  linked: Set<string>;
}

const LOCAL_SIGNATURE = 0x04034b50;
const LOCAL_HEADER_SIZE = 30;
const MAX_MANIFEST_BYTES = 32 * 1024 * 1024;
/** Entries written at once: enough to overlap disk latency, few enough to leave the thread pool to requests. */
const EXTRACT_CONCURRENCY = 3;
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

interface LocatedEntry {
  entry: ZipEntryRecord;
  dataStart: number;
}

/**
 * Verifies a bundle zip and extracts it into `filesDir` (which must not exist yet). Nothing
 * is trusted: names and caps are checked on the raw central directory first, the manifest is
 * checked against the entry list and the pin, and each file is inflated by hand, entry by entry,
 * with its size capped while inflating and its SHA-256 compared with the manifest. Files are
 * not fsynced here: the caller syncs the finished tree once. All I/O and inflation is asynchronous, so the
 * event loop only ever runs short hashing steps.
 */
export async function extractBundle(
  zipPath: string,
  filesDir: string,
  limits: BundleLimits,
  pin: string | null,
  /** A version to link unchanged files from (see LinkBase). */
  base?: LinkBase,
): Promise<ExtractedBundle> {
  const size = (await stat(zipPath)).size;
  if (size > limits.maxBundleBytes) throw new BundleRefusedError(`bundle is ${size} bytes (limit ${limits.maxBundleBytes})`);
  const handle = await open(zipPath, 'r');
  try {
    const directory = await readZipDirectory(handle, size, limits.maxEntries);
    const { files } = verifyBundleEntries(directory.entries, limits);
    const located = await locateEntryData(handle, files, directory.centralDirectoryOffset);
    const manifestEntry = located.find((l) => l.entry.name === MANIFEST_PATH);
    if (!manifestEntry) throw new BundleRefusedError(`manifest ${MANIFEST_PATH} is missing`);
    if (manifestEntry.entry.uncompressedSize > MAX_MANIFEST_BYTES) throw new BundleRefusedError('manifest is too large');
    const manifest = parseManifest(await readEntry(handle, manifestEntry));
    const expected = checkManifestAgainstEntries(manifest, files, pin);

    await mkdir(filesDir, { recursive: false, mode: 0o755 }).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err;
      await mkdir(dirname(filesDir), { recursive: true });
      await mkdir(filesDir, { mode: 0o755 });
    });
    const madeDirs = new Map<string, Promise<void>>([[filesDir, Promise.resolve()]]);
    const ensureDir = (dir: string): Promise<void> => {
      let made = madeDirs.get(dir);
      if (!made) {
        made = ensureDir(dirname(dir)).then(() => mkdir(dir, { mode: 0o755 }).then(() => undefined));
        madeDirs.set(dir, made);
      }
      return made;
    };
    const toExtract = located.filter((l) => l.entry !== manifestEntry.entry);
    let extractedBytes = 0;
    const linked = new Set<string>();
    await forEachConcurrently(toExtract, EXTRACT_CONCURRENCY, async (item) => {
      const want = expected.get(item.entry.name)!;
      const target = join(filesDir, item.entry.name);
      await ensureDir(dirname(target));
      extractedBytes += want.size;
      if (
        base?.fingerprints.get(item.entry.name) === fileFingerprint(want) &&
        (await linkOrCopy(join(base.filesDir, item.entry.name), target))
      )
        linked.add(item.entry.name);
      else await writeEntry(handle, item, target, want);
    });
    return { manifest, fileCount: toExtract.length, extractedBytes, linked };
  } finally {
    await handle.close();
  }
}

/**
 * Reads each entry's local header: it must be where the directory says, carry the same name
 * and no encryption, and its data must end before the next entry starts (overlapping entries
 * are a known way to build zip bombs from a tiny file).
 */
async function locateEntryData(handle: FileHandle, files: ZipEntryRecord[], cdOffset: number): Promise<LocatedEntry[]> {
  const ordered = [...files].sort((a, b) => a.localHeaderOffset - b.localHeaderOffset);
  const located: LocatedEntry[] = [];
  let previousEnd = 0;
  for (const entry of ordered) {
    const label = JSON.stringify(entry.name);
    if (entry.localHeaderOffset < previousEnd) throw new BundleRefusedError(`entry ${label} overlaps another entry`);
    if (entry.localHeaderOffset + LOCAL_HEADER_SIZE > cdOffset)
      throw new BundleRefusedError(`corrupt zip: entry ${label} points past the file data`);
    const header = await readExactly(handle, entry.localHeaderOffset, LOCAL_HEADER_SIZE);
    if (header.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new BundleRefusedError(`corrupt zip: no local header for ${label}`);
    if (header.readUInt16LE(6) & 0x0041) throw new BundleRefusedError(`encrypted entry ${label} is not allowed`);
    const nameLength = header.readUInt16LE(26);
    const extraLength = header.readUInt16LE(28);
    const localName = await readExactly(handle, entry.localHeaderOffset + LOCAL_HEADER_SIZE, nameLength);
    if (!localName.equals(entry.rawName)) throw new BundleRefusedError(`entry ${label} has a different name in its local header`);
    const dataStart = entry.localHeaderOffset + LOCAL_HEADER_SIZE + nameLength + extraLength;
    const dataEnd = dataStart + entry.compressedSize;
    if (dataEnd > cdOffset) throw new BundleRefusedError(`corrupt zip: data of ${label} runs into the central directory (truncated?)`);
    previousEnd = dataEnd;
    located.push({ entry, dataStart });
  }
  return located;
}

/** The stages that turn an entry's stored bytes back into its content. */
function entryStages(handle: FileHandle, item: LocatedEntry): Stage[] {
  const { entry, dataStart } = item;
  if (entry.compressedSize === 0) return [Readable.from([])];
  const raw = readRange(handle, dataStart, entry.compressedSize);
  return entry.method === 8 ? [raw, createInflateRaw()] : [raw];
}

/**
 * Positional reads of one byte range of the shared zip handle. (A FileHandle's own read
 * streams each leave a listener on the handle, and entries number in the thousands.)
 */
function readRange(handle: FileHandle, start: number, length: number): Readable {
  let position = start;
  const end = start + length;
  return new Readable({
    highWaterMark: 256 * 1024,
    read(size) {
      const want = Math.min(Math.max(size, 64 * 1024), end - position);
      if (want <= 0) {
        this.push(null);
        return;
      }
      handle.read(Buffer.allocUnsafe(want), 0, want, position).then(
        ({ bytesRead, buffer }) => {
          if (bytesRead === 0) return this.destroy(new BundleRefusedError('corrupt zip: file is truncated'));
          position += bytesRead;
          this.push(buffer.subarray(0, bytesRead));
        },
        (err: Error) => this.destroy(err),
      );
    },
  });
}

type Stage = NodeJS.ReadableStream | NodeJS.ReadWriteStream | NodeJS.WritableStream;

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

/** Runs a pipeline, reporting damaged deflate data as a refusal rather than an internal error. */
async function runStages(stages: Stage[], label: string): Promise<void> {
  try {
    await pipeline(stages);
  } catch (err) {
    if (err instanceof BundleRefusedError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code?.startsWith('Z_')) throw new BundleRefusedError(`corrupt compressed data in ${label}`);
    throw err;
  }
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

/** Counts and hashes bytes as they are inflated; stops the stream the moment it exceeds the cap. */
class SizeAndHashMeter extends Transform {
  private bytes = 0;
  private readonly hash = createHash('sha256');
  constructor(
    private readonly cap: number,
    private readonly label: string,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.cap) {
      callback(new BundleRefusedError(`entry ${this.label} inflates beyond its declared size of ${this.cap} bytes (possible zip bomb)`));
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }
  assertComplete(): void {
    if (this.bytes !== this.cap) throw new BundleRefusedError(`entry ${this.label} holds ${this.bytes} bytes but declares ${this.cap}`);
  }
  sha256(): string {
    return this.hash.digest('hex');
  }
}

function parseManifest(data: Buffer): BundleManifest {
  let json: unknown;
  try {
    json = JSON.parse(data.toString('utf8'));
  } catch {
    throw new BundleRefusedError(`manifest ${MANIFEST_PATH} is not valid JSON`);
  }
  const parsed = bundleManifestSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new BundleRefusedError(`manifest ${MANIFEST_PATH} is malformed: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/**
 * The manifest and the zip must describe the same set of files with the same sizes; the pin,
 * when set, must equal the manifest's version. Returns the expected size and hash per path.
 */
function checkManifestAgainstEntries(
  manifest: BundleManifest,
  files: ZipEntryRecord[],
  pin: string | null,
): Map<string, { size: number; sha256: string }> {
  if (pin !== null && manifest.version !== pin)
    throw new BundleRefusedError(`bundle version "${manifest.version}" does not match the pinned version "${pin}"`);
  const expected = new Map<string, { size: number; sha256: string }>();
  for (const file of manifest.files) {
    if (file.path === MANIFEST_PATH) throw new BundleRefusedError('manifest lists itself');
    if (expected.has(file.path)) throw new BundleRefusedError(`manifest lists ${JSON.stringify(file.path)} twice`);
    expected.set(file.path, { size: file.size, sha256: file.sha256 });
  }
  const inZip = new Set<string>();
  for (const entry of files) {
    if (entry.name === MANIFEST_PATH) continue;
    inZip.add(entry.name);
    const want = expected.get(entry.name);
    if (!want) throw new BundleRefusedError(`file ${JSON.stringify(entry.name)} is in the zip but not in the manifest`);
    if (want.size !== entry.uncompressedSize)
      throw new BundleRefusedError(
        `size of ${JSON.stringify(entry.name)} does not match the manifest (${entry.uncompressedSize} vs ${want.size})`,
      );
  }
  for (const path of expected.keys())
    if (!inZip.has(path)) throw new BundleRefusedError(`file ${JSON.stringify(path)} is in the manifest but missing from the zip`);
  for (const page of manifest.pages) {
    if (!expected.has(page.file))
      throw new BundleRefusedError(`page ${page.path} points to ${JSON.stringify(page.file)}, which the bundle does not hold`);
  }
  return expected;
}
