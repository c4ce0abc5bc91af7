import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import { compressVariants } from '../../bundle/install/compressVariants.js';
import type { FileExtras } from '../../bundle/install/FileExtras.js';
import { forEachConcurrently } from '../../bundle/install/forEachConcurrently.js';
import { syncTree } from '../../bundle/install/syncTree.js';
import { writeFileDurably } from '../../platform/store/writeFileDurably.js';
import type { SiteVersion, UnsettledFile } from './SiteVersion.js';
import type { VerifiedVariants } from './VerifiedVariants.js';

/** Bytes of files settled between two writes of the record: few rewrites of extras.json, little lost to a crash. */
const CHUNK_BYTES = 8 * 1024 * 1024;
/** Two at a time, as before the switch: compression shares the thread pool with requests' reads. */
const CONCURRENCY = 2;
/** Hashed per turn of the event loop, so a large file's hash never holds up requests for long. */
const HASH_SLICE_BYTES = 1024 * 1024;

type Variant = { absPath: string; size: number; sha256: string };
/** One file's outcome: its variants (none worth keeping: `{}`), whether they are new, or null (left identity-only). */
type Settled = { file: UnsettledFile; variants: { gzip?: Variant; br?: Variant }; made: boolean } | null;

/**
 * Finishes a live (or kept) version's variants after the switch: compresses the files whose
 * compression was deferred (precompressSiteFiles' inline budget) and checks variants made that
 * way before (a restart) against their recorded SHA-256. A file's bytes are checked against the
 * manifest's SHA-256 before they are compressed; new variants are written, made durable, then
 * recorded in the version's extras.json, and only then added to the served table. Until then the
 * file is served as identity, so a crash or a refused check at any point never serves a bad
 * variant. `stop` is asked between files (a deployment waits, or shutdown); what is done is kept
 * and the rest stays in `version.unsettled` for a later call.
 */
export async function settleVariants(
  version: SiteVersion,
  extrasPath: string,
  { stop, logger, verified }: { stop: () => boolean; logger: Logger; verified: VerifiedVariants },
): Promise<void> {
  let record: Record<string, FileExtras> | null = null;
  while (version.unsettled.length > 0 && !stop()) {
    const chunk = takeChunk(version.unsettled);
    const done: Settled[] = [];
    const left: UnsettledFile[] = [];
    await forEachConcurrently(chunk, CONCURRENCY, async (file) => {
      // Asked per file: a deployment waiting must not sit behind megabytes of compression.
      if (stop()) left.push(file);
      else done.push(await settleOne(file, logger).catch((err: unknown) => refuse(logger, version, file, err)));
    });
    version.unsettled.push(...left);
    const made = done.filter((d): d is NonNullable<Settled> => d?.made === true);
    if (made.length > 0) {
      await syncTree(
        dirname(extrasPath),
        made.flatMap((d) => [d.variants.gzip, d.variants.br].flatMap((v) => (v ? [v.absPath] : []))),
      );
      record ??= JSON.parse(await readFile(extrasPath, 'utf8')) as Record<string, FileExtras>;
      for (const { file, variants } of made) record[file.path] = settledExtras(record[file.path], variants);
      await writeFileDurably(extrasPath, JSON.stringify(record), 0o644);
    }
    for (const d of done) {
      if (!d) continue;
      for (const v of [d.variants.gzip, d.variants.br]) if (v) verified.note(v.absPath, v.sha256);
      version.addVariants(d.file.path, d.variants);
    }
  }
}

/** Removes and returns the next files from `queue`, up to CHUNK_BYTES (at least one). */
function takeChunk(queue: UnsettledFile[]): UnsettledFile[] {
  let bytes = 0;
  let count = 0;
  while (count < queue.length && (count === 0 || bytes < CHUNK_BYTES)) bytes += queue[count++].size;
  return queue.splice(0, count);
}

/** Checks recorded variants, or (none recorded, or a check failed, in a folder of its own) makes them. */
async function settleOne(file: UnsettledFile, logger: Logger): Promise<Settled> {
  if (file.recorded) {
    const [gzip, br] = await Promise.all([
      checked(`${file.encodedBase}.gz`, file.recorded.gzip),
      checked(`${file.encodedBase}.br`, file.recorded.br),
    ]);
    if (gzip !== false && br !== false) return { file, variants: { gzip, br }, made: false };
    if (file.own) logger.warn({ path: file.path }, 'a compressed variant differs from its record (altered on disk?): it is made again');
  }
  // A referred file's variants are another version's, never written from here: identity only.
  if (!file.own) throw new Error(`the variants of ${file.encodedBase} differ from their record`);
  const data = await readFile(file.identity);
  if (data.length !== file.size || (await sha256(data)) !== file.sha256)
    throw new Error(`${file.identity} does not match the manifest's size and SHA-256`);
  const compressed = await compressVariants(data);
  const variants: { gzip?: Variant; br?: Variant } = {};
  // A crash may have left a variant of an earlier try: it was never recorded, so it is replaced.
  await Promise.all(['.gz', '.br'].map((ext) => rm(`${file.encodedBase}${ext}`, { force: true })));
  if (compressed.gzip || compressed.br) await mkdir(dirname(file.encodedBase), { recursive: true });
  for (const [key, ext] of [
    ['gzip', '.gz'],
    ['br', '.br'],
  ] as const) {
    const bytes = compressed[key];
    if (!bytes) continue;
    const absPath = `${file.encodedBase}${ext}`;
    await writeFile(absPath, bytes, { flag: 'wx', mode: 0o644 });
    variants[key] = { absPath, size: bytes.length, sha256: await sha256(bytes) };
  }
  return { file, variants, made: true };
}

/** The variant at `absPath` when it has the recorded size and SHA-256; undefined when none is recorded; false when it differs. */
async function checked(absPath: string, want: { size: number; sha256: string } | undefined): Promise<Variant | undefined | false> {
  if (!want) return undefined;
  const data = await readFile(absPath).catch(() => null);
  if (!data || data.length !== want.size || (await sha256(data)) !== want.sha256) return false;
  return { absPath, ...want };
}

/** A file's extras once its variants are made: deferred no more, their sizes and hashes recorded. */
function settledExtras(extra: FileExtras | undefined, variants: { gzip?: Variant; br?: Variant }): FileExtras {
  const { deferred: _deferred, gzip: _gzip, br: _br, variantSha256: _sha, ...rest } = extra ?? {};
  const next: FileExtras = { ...rest };
  if (variants.gzip) next.gzip = variants.gzip.size;
  if (variants.br) next.br = variants.br.size;
  if (variants.gzip || variants.br) next.variantSha256 = { gzip: variants.gzip?.sha256, br: variants.br?.sha256 };
  return next;
}

function refuse(logger: Logger, version: SiteVersion, file: UnsettledFile, err: unknown): null {
  logger.error(
    { err, deploymentId: version.id, path: file.path },
    "a file's gzip/brotli variants could not be made or checked: it is served uncompressed",
  );
  return null;
}

/** SHA-256 in hex, a slice per turn of the event loop. */
async function sha256(data: Buffer): Promise<string> {
  const hash = createHash('sha256');
  for (let at = 0; at < data.length; at += HASH_SLICE_BYTES) {
    hash.update(data.subarray(at, at + HASH_SLICE_BYTES));
    if (at + HASH_SLICE_BYTES < data.length) await new Promise((resolve) => setImmediate(resolve));
  }
  return hash.digest('hex');
}
