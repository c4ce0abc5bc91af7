import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { BundleRefusedError } from '../BundleRefusedError.js';
import { MANIFEST_PATH } from '../bundleManifest.js';
import { readTarEntries, type TarEntryHeader } from '../tar/readTarEntries.js';
import type { ZipEntryRecord } from '../zip/readZipDirectory.js';
import { checkManifestAgainstEntries, MAX_MANIFEST_BYTES, parseManifest } from './checkBundleManifest.js';
import type { ExtractedBundle } from './ExtractedBundle.js';
import { makeTargetDirs, WRITE_FLAGS } from './makeTargetDirs.js';
import { runStages, SizeAndHashMeter } from './SizeAndHashMeter.js';
import { type BundleLimits, verifyBundleEntries } from './verifyBundle.js';

/** st_mode file types, as verifyBundleEntries reads them from a zip's external attributes. */
const MODE_OF = { file: 0o100000, directory: 0o040000, symlink: 0o120000, special: 0o020000 } as const;

/**
 * `tar -C dir .` names every entry `./x` and adds `./` itself: the prefix says nothing, so it
 * goes (once) before the rules look; anything else is left exactly as written.
 */
function withoutDotPrefix(header: TarEntryHeader): TarEntryHeader {
  return header.name.startsWith('./') && header.name.length > 2 ? { ...header, name: header.name.slice(2) } : header;
}

/**
 * A tar header in the shape the zip rules read: the same checks then hold for both formats
 * (names, types, duplicates, caps). A tar stores entries whole, so each entry's own ratio is
 * 1:1; the archive's overall ratio is checked while reading instead.
 */
function asEntryRecord(header: TarEntryHeader): ZipEntryRecord {
  if (header.type === 'hardlink') throw new BundleRefusedError(`hard link entry ${JSON.stringify(header.name)} is not allowed`);
  const name = header.type === 'directory' && !header.name.endsWith('/') ? `${header.name}/` : header.name;
  return {
    rawName: Buffer.from(name, 'utf8'),
    name,
    flags: 0,
    method: 0,
    crc32: 0,
    compressedSize: header.size,
    uncompressedSize: header.size,
    madeByOs: 3,
    externalAttributes: (MODE_OF[header.type] << 16) >>> 0,
    localHeaderOffset: 0,
  };
}

/** First pass: every header, capped as it arrives, and the manifest's bytes. */
async function indexTar(path: string, size: number, limits: BundleLimits): Promise<{ records: ZipEntryRecord[]; manifest: Buffer | null }> {
  const records: ZipEntryRecord[] = [];
  let manifest: Buffer | null = null;
  let total = 0;
  await readTarEntries(path, async (raw, body) => {
    if (raw.name === './' && raw.type === 'directory') return void body.resume();
    const header = withoutDotPrefix(raw);
    records.push(asEntryRecord(header));
    if (records.length > limits.maxEntries) throw new BundleRefusedError(`too many entries: more than ${limits.maxEntries}`);
    total += header.size;
    // Checked as headers arrive, so a bomb is stopped before it is inflated any further.
    if (total > limits.maxExtractedBytes) throw new BundleRefusedError(`total uncompressed size exceeds ${limits.maxExtractedBytes} bytes`);
    if (total / size > limits.maxCompressionRatio)
      throw new BundleRefusedError(`archive expands beyond ${limits.maxCompressionRatio}:1 (possible decompression bomb)`);
    if (header.name !== MANIFEST_PATH || header.type !== 'file') return void body.resume();
    if (header.size > MAX_MANIFEST_BYTES) throw new BundleRefusedError('manifest is too large');
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    const meter = new SizeAndHashMeter(header.size, JSON.stringify(header.name));
    await runStages([body, meter, sink], JSON.stringify(header.name));
    meter.assertComplete();
    manifest = Buffer.concat(chunks);
  });
  return { records, manifest };
}

/**
 * Verifies a `.tar.gz` bundle and extracts it into `filesDir`, under the zip path's rules: a
 * first pass reads every header (capped while reading) and the manifest, then the entries go
 * through verifyBundleEntries and the manifest check; a second pass writes each file, its size
 * capped and its SHA-256 compared with the manifest. gzip can't be read out of order, hence two
 * passes over the private copy instead of one that would write before knowing the whole list.
 */
export async function extractTarBundle(
  path: string,
  size: number,
  filesDir: string,
  limits: BundleLimits,
  pin: string | null,
): Promise<ExtractedBundle> {
  const { records, manifest: manifestBytes } = await indexTar(path, size, limits);
  const { files } = verifyBundleEntries(records, limits);
  if (!manifestBytes) throw new BundleRefusedError(`manifest ${MANIFEST_PATH} is missing`);
  const manifest = parseManifest(manifestBytes);
  const expected = checkManifestAgainstEntries(manifest, files, pin);

  const ensureDir = await makeTargetDirs(filesDir);
  let fileCount = 0;
  let extractedBytes = 0;
  await readTarEntries(path, async (raw, body) => {
    const header = withoutDotPrefix(raw);
    const want = header.type === 'file' && header.name !== MANIFEST_PATH ? expected.get(header.name) : undefined;
    if (!want) return void body.resume();
    const label = JSON.stringify(header.name);
    const target = join(filesDir, header.name);
    await ensureDir(dirname(target));
    const meter = new SizeAndHashMeter(want.size, label);
    const out = await open(target, WRITE_FLAGS, 0o644);
    await runStages([body, meter, out.createWriteStream({ highWaterMark: 256 * 1024 })], label);
    meter.assertComplete();
    if (meter.sha256() !== want.sha256) throw new BundleRefusedError(`SHA-256 of ${label} does not match the manifest (file altered)`);
    fileCount += 1;
    extractedBytes += want.size;
  });
  if (fileCount !== expected.size) throw new BundleRefusedError('the archive changed between its two reads');
  // A tar.gz is read as one stream, so every file is written: nothing is linked from a base.
  return { manifest, fileCount, extractedBytes, linked: new Set() };
}
