import { compressVariants } from '../../../bundle/install/compressVariants.js';
import type { ReaderAudience } from '../../../platform/access/mayAudienceSee.js';
import type { FileVariant, ServedFile, SiteVersion } from '../SiteVersion.js';
import { AGENT_SEARCH_FILE } from '../../../render/index.js';
import { agentChannelFor } from './agentChannelFor.js';
import { openVersionFile } from './openVersionFile.js';
import { sitemapFor } from './sitemapFor.js';
import { stripHiddenLinks } from './stripHiddenLinks.js';
import type { VersionAccess } from './VersionAccess.js';

/** How answers that depend on the reader are cached: by the browser only, and checked each time. */
export const READER_CACHE_CONTROL = 'private, no-cache';

const SITEMAP_FILE = 'sitemap.xml';

/** Per-version memo of what each kind of reader gets for a file, so a page is rewritten once per kind. */
const views = new WeakMap<SiteVersion, Map<string, Promise<ServedFile>>>();
/** Files remembered per version (pages × kinds of reader); beyond it the oldest go. */
const MAX_VIEWS = 20_000;

/** What a reader gets for a file: the file to send, null (answered as missing), or that file once it is built. */
export type ReaderView = ServedFile | null | Promise<ServedFile>;

/**
 * Per version, per kind of reader (VersionAccess.keyOf), per requested file: the answer
 * fileForReader gave, the built file itself once its promise settled. A signed-in page view is
 * then two map lookups and no promise: the access rules run once per file and kind of reader.
 */
const decided = new WeakMap<SiteVersion, { size: number; byKind: Map<string, Map<string, ReaderView>> }>();

/**
 * `file` of `version` as `reader` may have it on a site with reader sign-in: null when it shows
 * a page they may not open (answered exactly like a missing file), their audience's copy in
 * place of the site-wide search index and llms files, the sitemap and agent channel cut to the
 * pages they may open, a page without links to pages they may
 * not open, and for all of these a copy marked private (Cache-Control private, Vary: Cookie).
 * Assets only restricted pages use (the access map's `assets`) are gated like those pages;
 * other assets (styles, scripts, images public pages use) are served as they are. Synchronous
 * once the answer for this file and kind of reader is known (see `decided`).
 */
export function fileForReader(version: SiteVersion, file: ServedFile, reader: ReaderAudience): ReaderView {
  let memo = decided.get(version);
  if (!memo) decided.set(version, (memo = { size: 0, byKind: new Map() }));
  // Without an access map the only distinction is signed in or not (keyOf says the same then).
  const kind = version.access ? version.access.keyOf(reader) : reader === null ? '' : '+';
  let byFile = memo.byKind.get(kind);
  if (!byFile) memo.byKind.set(kind, (byFile = new Map()));
  const known = byFile.get(file.path);
  if (known !== undefined) return known;
  // Bounded like the views: past the limit the memo starts over (a miss only costs the rules again).
  if (memo.size >= MAX_VIEWS) {
    memo.size = 0;
    memo.byKind.clear();
    memo.byKind.set(kind, byFile);
    byFile.clear();
  }
  const view = decide(version, file, reader);
  byFile.set(file.path, view);
  memo.size++;
  if (view instanceof Promise) {
    const files = byFile;
    // Settled, the entry holds the file itself; a failed build is forgotten, to be tried again.
    view.then(
      (built) => files.get(file.path) === view && files.set(file.path, built),
      () => files.get(file.path) === view && files.delete(file.path),
    );
  }
  return view;
}

/** The access rules of fileForReader, run once per file and kind of reader. */
function decide(version: SiteVersion, file: ServedFile, reader: ReaderAudience): ReaderView {
  const access = version.access;
  // An image or download only restricted pages use is theirs: missing to anyone else, private to the rest.
  const mayLoad = access?.mayLoadAsset(file.path, reader);
  if (mayLoad !== undefined) return mayLoad ? memo(version, `asset\0${file.path}`, async () => privateCopy(file)) : null;
  // No access map (no page marked, or a bundle from before them): every page needs a signed-in
  // reader, who sees it all; what they see is still theirs alone, never for a shared cache.
  if (!access?.map) {
    if (isAsset(file, access)) return file;
    return reader === null ? null : memo(version, `+\0${file.path}`, async () => privateCopy(file));
  }
  if (file.path === AGENT_SEARCH_FILE)
    return memo(version, `${access.keyOf(reader)}\0${file.path}`, () => readerAgentChannel(version, access, file, reader));
  if (file.path === SITEMAP_FILE)
    return memo(version, `${access.keyOf(reader)}\0${file.path}`, () => readerSitemap(version, access, file, reader));
  const standIn = access.standIn(file, reader);
  if (standIn !== undefined) return standIn && memo(version, `${access.keyOf(reader)}\0${standIn.path}`, async () => privateCopy(standIn));
  const page = access.pageOf(file.path);
  if (page !== undefined && !access.mayOpen(page, reader)) return null;
  const isPage = page !== undefined || file.path === '404.html';
  if (!isPage) return file;
  return memo(version, `${access.keyOf(reader)}\0${file.path}`, () => readerPage(version, access, file, reader));
}

function isAsset(file: ServedFile, access: VersionAccess | null): boolean {
  return (
    access?.pageOf(file.path) === undefined &&
    file.path !== '404.html' &&
    !/^(?:llms(?:-full)?\.txt|search-agents\.json|sitemap\.xml|_assets\/search-index\.)/.test(file.path)
  );
}

function memo(version: SiteVersion, key: string, make: () => Promise<ServedFile>): Promise<ServedFile> {
  let byKey = views.get(version);
  if (!byKey) views.set(version, (byKey = new Map()));
  let view = byKey.get(key);
  if (!view) {
    if (byKey.size >= MAX_VIEWS) byKey.delete(byKey.keys().next().value as string);
    view = make();
    // A failed read is not remembered: the next request tries again.
    view.catch(() => byKey.delete(key));
    byKey.set(key, view);
  }
  return view;
}

/** A page (HTML or its Markdown copy) for this kind of reader: HTML without links to pages hidden from them. */
async function readerPage(version: SiteVersion, access: VersionAccess, file: ServedFile, reader: ReaderAudience): Promise<ServedFile> {
  if (!file.contentType.startsWith('text/html')) return privateCopy(file);
  const original = await readIdentity(version, file.identity);
  const hidden = (page: string) => hiddenFrom(access, page, reader) || hiddenFrom(access, `${page}/index`, reader);
  const html = stripHiddenLinks(original.toString('utf8'), urlPathOf(file.path), hidden);
  return await bodyCopy(file, Buffer.from(html), access.keyOf(reader));
}

/** sitemap.xml for this kind of reader: no URL of a page hidden from them. */
async function readerSitemap(version: SiteVersion, access: VersionAccess, file: ServedFile, reader: ReaderAudience): Promise<ServedFile> {
  const original = await readIdentity(version, file.identity);
  const hidden = (page: string) => hiddenFrom(access, page, reader) || hiddenFrom(access, `${page}/index`, reader);
  return await bodyCopy(file, Buffer.from(sitemapFor(original.toString('utf8'), hidden)), access.keyOf(reader));
}

/** The agent search channel for this kind of reader: only the pages they may open. */
async function readerAgentChannel(
  version: SiteVersion,
  access: VersionAccess,
  file: ServedFile,
  reader: ReaderAudience,
): Promise<ServedFile> {
  const original = await readIdentity(version, file.identity);
  return await bodyCopy(
    file,
    Buffer.from(agentChannelFor(original.toString('utf8'), (page) => access.mayOpen(page, reader))),
    access.keyOf(reader),
  );
}

/**
 * `file` answered privately with `body`, its ETag marked by the reader kind `key`, with a gzip and
 * a brotli copy where the file had them (and they are worth keeping): a signed-in browser gets
 * the same encoding an open site's reader gets.
 */
async function bodyCopy(file: ServedFile, body: Buffer, key: string): Promise<ServedFile> {
  const tag = `${file.identity.etag.slice(0, -1)}-${key === '' ? 'p' : Buffer.from(key).toString('base64url').slice(0, 16)}"`;
  const identity: FileVariant = { absPath: file.identity.absPath, size: body.length, etag: tag, body };
  // Compressed as the install compresses (once per page and kind of reader, on the thread pool).
  const compressed = file.gzip || file.br ? await compressVariants(body) : {};
  const gz = file.gzip ? (compressed.gzip ?? null) : null;
  const br = file.br ? (compressed.br ?? null) : null;
  const variant = (bytes: Buffer | null, suffix: string): FileVariant | undefined =>
    bytes ? { absPath: file.identity.absPath, size: bytes.length, etag: `${tag.slice(0, -1)}-${suffix}"`, body: bytes } : undefined;
  return { ...file, cacheControl: READER_CACHE_CONTROL, readerPrivate: true, identity, gzip: variant(gz, 'gz'), br: variant(br, 'br') };
}

function hiddenFrom(access: VersionAccess, page: string, reader: ReaderAudience): boolean {
  return access.map?.pages[page] !== undefined && !access.mayOpen(page, reader);
}

/** A copy of `file` answered privately; its variants are copied too, as their header memos differ. */
function privateCopy(file: ServedFile): ServedFile {
  const copy = (v: FileVariant | undefined) => v && { absPath: v.absPath, size: v.size, etag: v.etag, body: v.body };
  return {
    ...file,
    cacheControl: READER_CACHE_CONTROL,
    readerPrivate: true,
    identity: copy(file.identity)!,
    gzip: copy(file.gzip),
    br: copy(file.br),
  };
}

async function readIdentity(version: SiteVersion, variant: FileVariant): Promise<Buffer> {
  const cached = await version.cachedBody(variant);
  if (cached) return cached;
  const handle = await openVersionFile(variant.absPath);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The URL a bundle file is served at, for resolving its relative links (`a/index.html` → `/a/`). */
function urlPathOf(file: string): string {
  if (file === 'index.html' || file === '404.html') return '/';
  if (file.endsWith('/index.html')) return `/${file.slice(0, -'index.html'.length)}`;
  return `/${file.replace(/\.html$/, '')}`;
}
