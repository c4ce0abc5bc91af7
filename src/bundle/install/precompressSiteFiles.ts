import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { DOCUMENT_POLICY_META } from '../../platform/documentPolicyMeta.js';
import { forEachConcurrently } from './forEachConcurrently.js';
import type { FileExtras } from './FileExtras.js';
import { type LinkBase, linkAll } from './LinkBase.js';
import { siteFileType } from './siteFileType.js';

export type { FileExtras } from './FileExtras.js';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);
/** Below this, compression saves less than the headers it costs. */
const MIN_COMPRESS_BYTES = 512;
/** A variant is kept only when it saves at least this fraction. */
const MAX_KEPT_RATIO = 0.9;
/** Brotli's top qualities cost seconds per megabyte; these keep a large bundle's activation to seconds. */
const BROTLI_QUALITY_SMALL = 6;
/**
 * Over LARGE_FILE_BYTES: the site-wide files (search index, llms-full.txt, tens of MB on 10,000
 * pages) change with any page, so their compression is most of a one-page deploy. On 21 MB of
 * search index quality 4 took 265 ms of CPU against 632 at 5, for a file 6% larger (3.80 / 3.57 MB).
 */
const BROTLI_QUALITY_LARGE = 4;
const LARGE_FILE_BYTES = 1024 * 1024;
/**
 * gzip's level for files under and over LARGE_FILE_BYTES. The large ones are the site-wide files
 * (search index, llms-full.txt) that change with any page: at level 9 they were most of a
 * one-page change's activation on a large site; browsers take brotli, so gzip size matters less.
 */
const GZIP_LEVEL_SMALL = 9;
const GZIP_LEVEL_LARGE = 4;
/** Larger files are served uncompressed rather than held in memory to compress. */
const MAX_COMPRESS_BYTES = 32 * 1024 * 1024;
/** Two at a time: compression runs on the libuv pool, which requests' file reads also use. */
const COMPRESS_CONCURRENCY = 2;
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/**
 * Stores gzip and brotli variants of every compressible file under `encodedDir` (outside the
 * served tree, so they can never be requested by name) and collects each HTML page's inline
 * script hashes. Done once at activation so no request ever compresses anything; compression
 * runs on the thread pool and never blocks the event loop. The caller makes the files durable
 * (syncTree) before the version goes live.
 */
export async function precompressSiteFiles(
  filesDir: string,
  encodedDir: string,
  files: readonly { path: string; size: number }[],
  /** Files linked unchanged from `base`: their variants and extras are linked and taken from it too. */
  reuse?: { base: LinkBase; linked: ReadonlySet<string> },
): Promise<Record<string, FileExtras>> {
  const extras: Record<string, FileExtras> = {};
  const taken = reuse ? await linkVariants(files, reuse, encodedDir, extras) : new Set<string>();
  await forEachConcurrently(files, COMPRESS_CONCURRENCY, async ({ path, size }) => {
    if (taken.has(path)) return;
    const type = siteFileType(path);
    const isHtml = type.contentType.startsWith('text/html');
    if ((!type.compressible && !isHtml) || size > MAX_COMPRESS_BYTES) return;
    const data = await readFile(join(filesDir, path));
    const found: FileExtras = {};
    if (isHtml) {
      const hashes = inlineScriptHashes(data.toString('utf8'));
      if (hashes.length) found.scriptHashes = hashes;
      if (declaresHeadPolicies(data)) found.headPolicies = true;
    }
    if (type.compressible && data.length >= MIN_COMPRESS_BYTES) {
      const large = data.length > LARGE_FILE_BYTES;
      const quality = large ? BROTLI_QUALITY_LARGE : BROTLI_QUALITY_SMALL;
      const [gz, br] = await Promise.all([
        gzipAsync(data, { level: large ? GZIP_LEVEL_LARGE : GZIP_LEVEL_SMALL }),
        brotliAsync(data, {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: quality,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: data.length,
            [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
          },
        }),
      ]);
      const base = join(encodedDir, path);
      if (gz.length <= data.length * MAX_KEPT_RATIO || br.length <= data.length * MAX_KEPT_RATIO)
        await mkdir(dirname(base), { recursive: true });
      if (gz.length <= data.length * MAX_KEPT_RATIO) {
        await writeNew(`${base}.gz`, gz);
        found.gzip = gz.length;
      }
      if (br.length <= data.length * MAX_KEPT_RATIO) {
        await writeNew(`${base}.br`, br);
        found.br = br.length;
      }
    }
    if (Object.keys(found).length) extras[path] = found;
  });
  return extras;
}

/** Whether an HTML document carries DOCUMENT_POLICY_META in its head (before `</head>`). */
export function declaresHeadPolicies(html: Buffer): boolean {
  const at = html.indexOf(DOCUMENT_POLICY_META);
  return at >= 0 && at < html.indexOf('</head>');
}

/** CSP source hashes of the inline (no `src`) scripts of an HTML document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc\s*=/i.test(match[1]) || match[2].length === 0) continue;
    hashes.add(`sha256-${createHash('sha256').update(match[2], 'utf8').digest('base64')}`);
  }
  return [...hashes];
}

/**
 * Takes the base version's gzip and brotli variants of the files taken from it (linked into
 * `encodedDir`; with `base.refer` left where they are, which extraction checked with the file)
 * and their extras (they follow from the content, which is the same). Returns the paths done; a
 * file with a variant missing there is left to be compressed afresh.
 */
async function linkVariants(
  files: readonly { path: string }[],
  { base, linked }: { base: LinkBase; linked: ReadonlySet<string> },
  encodedDir: string,
  extras: Record<string, FileExtras>,
): Promise<Set<string>> {
  if (base.refer) {
    for (const path of linked) if (base.extras[path] !== undefined) extras[path] = base.extras[path];
    return new Set(linked);
  }
  const taken = new Set<string>();
  const pairs: { path: string; from: string; to: string }[] = [];
  const dirs = new Set<string>();
  for (const { path } of files) {
    if (!linked.has(path)) continue;
    const found = base.extras[path];
    if (found === undefined) {
      taken.add(path);
      continue;
    }
    const from = base.locate(path).encodedDir;
    for (const ext of [...(found.gzip === undefined ? [] : ['.gz']), ...(found.br === undefined ? [] : ['.br'])]) {
      pairs.push({ path, from: join(from, `${path}${ext}`), to: join(encodedDir, `${path}${ext}`) });
      dirs.add(dirname(join(encodedDir, path)));
    }
    if (!pairs.length || pairs[pairs.length - 1].path !== path) taken.add(path);
  }
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  const done = await linkAll(pairs);
  const missing = new Set(pairs.filter((_, i) => !done[i]).map((p) => p.path));
  // Compressed afresh instead: no half-linked pair may stand in the way of its writes.
  await Promise.all(pairs.filter((p, i) => missing.has(p.path) && done[i]).map((p) => rm(p.to, { force: true })));
  for (const { path } of pairs) if (!missing.has(path)) taken.add(path);
  for (const path of taken) if (base.extras[path] !== undefined) extras[path] = base.extras[path];
  return taken;
}

async function writeNew(path: string, data: Buffer): Promise<void> {
  await writeFile(path, data, { flag: 'wx', mode: 0o644 });
}
