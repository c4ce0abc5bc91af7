import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DOCUMENT_POLICY_META } from '../../platform/documentPolicyMeta.js';
import { compressVariants, MAX_COMPRESS_BYTES, MIN_COMPRESS_BYTES } from './compressVariants.js';
import { forEachConcurrently } from './forEachConcurrently.js';
import type { FileExtras } from './FileExtras.js';
import { type LinkBase, linkAll } from './LinkBase.js';
import { siteFileType } from './siteFileType.js';

export type { FileExtras } from './FileExtras.js';

/** Two at a time: compression runs on the libuv pool, which requests' file reads also use. */
const COMPRESS_CONCURRENCY = 2;
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/**
 * Stores gzip and brotli variants of every compressible file under `encodedDir` (outside the
 * served tree, so they can never be requested by name) and collects each HTML page's inline
 * script hashes. Compression runs on the thread pool and never blocks the event loop. With
 * `inlineBudget`, only that many bytes are compressed (smallest files first) and the rest are
 * marked `deferred`, to be compressed once the version is live (settleVariants): a deploy whose
 * changed files are large or many then costs what extracting them costs. The caller makes the
 * files durable (syncTree) before the version goes live.
 */
export async function precompressSiteFiles(
  filesDir: string,
  encodedDir: string,
  files: readonly { path: string; size: number }[],
  /** Files linked unchanged from `base`: their variants and extras are linked and taken from it too. */
  reuse?: { base: LinkBase; linked: ReadonlySet<string> },
  /** Bytes compressed before returning; unset: every file. */
  inlineBudget = Number.POSITIVE_INFINITY,
): Promise<Record<string, FileExtras>> {
  const extras: Record<string, FileExtras> = {};
  const taken = reuse ? await linkVariants(files, reuse, encodedDir, extras) : new Set<string>();
  const fresh = files.filter((f) => !taken.has(f.path));
  const deferred = overBudget(fresh, inlineBudget);
  await forEachConcurrently(fresh, COMPRESS_CONCURRENCY, async ({ path, size }) => {
    const type = siteFileType(path);
    const isHtml = type.contentType.startsWith('text/html');
    const defer = deferred.has(path);
    if ((!type.compressible && !isHtml) || size > MAX_COMPRESS_BYTES) return;
    // A deferred file is read now only when it is a page: its CSP hashes are needed to serve it.
    const data = !defer || isHtml ? await readFile(join(filesDir, path)) : null;
    const found: FileExtras = data && isHtml ? inspectPage(data) : {};
    if (defer) found.deferred = true;
    else if (data && type.compressible) {
      const variants = await compressVariants(data);
      if (variants.gzip || variants.br) await mkdir(dirname(join(encodedDir, path)), { recursive: true });
      if (variants.gzip) found.gzip = await writeVariant(encodedDir, path, '.gz', variants.gzip);
      if (variants.br) found.br = await writeVariant(encodedDir, path, '.br', variants.br);
    }
    if (Object.keys(found).length) extras[path] = found;
  });
  return extras;
}

/** The compressible files past `budget` bytes when the smallest are taken first. */
function overBudget(files: readonly { path: string; size: number }[], budget: number): Set<string> {
  const deferred = new Set<string>();
  if (budget === Number.POSITIVE_INFINITY) return deferred;
  const worth = files.filter((f) => f.size >= MIN_COMPRESS_BYTES && f.size <= MAX_COMPRESS_BYTES && siteFileType(f.path).compressible);
  let spent = 0;
  for (const file of worth.sort((a, b) => a.size - b.size)) {
    spent += file.size;
    if (spent > budget) deferred.add(file.path);
  }
  return deferred;
}

/** The FileExtras an HTML page's bytes give: its inline scripts' hashes and whether it declares its head policies. */
function inspectPage(data: Buffer): FileExtras {
  const found: FileExtras = {};
  const hashes = inlineScriptHashes(data.toString('utf8'));
  if (hashes.length) found.scriptHashes = hashes;
  if (declaresHeadPolicies(data)) found.headPolicies = true;
  return found;
}

/** Writes a variant (`ext` `.gz` or `.br`) of `path` under `encodedDir`, which must not exist yet; returns its size. */
async function writeVariant(encodedDir: string, path: string, ext: '.gz' | '.br', data: Buffer): Promise<number> {
  await writeFile(join(encodedDir, `${path}${ext}`), data, { flag: 'wx', mode: 0o644 });
  return data.length;
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
