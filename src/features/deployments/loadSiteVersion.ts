import { loadVersionAccess } from './site/loadVersionAccess.js';
import { ACCESS_MAP_PATH } from '../../platform/access/PageAccess.js';
import { readFile, realpath } from 'node:fs/promises';
import { dirname, join, posix, relative } from 'node:path';
import { storedManifestSchema, type BundleManifest } from '../../bundle/bundleManifest.js';
import type { FileExtras } from '../../bundle/install/precompressSiteFiles.js';
import { siteFileType } from '../../bundle/install/siteFileType.js';
import { SiteVersion, type ServedFile, type UnsettledFile } from './SiteVersion.js';
import { versionLayout, type VersionLayout } from './versionLayout.js';
import { readVersionOrigins } from './VersionOrigins.js';
import type { VerifiedVariants } from './VerifiedVariants.js';

/** Long-lived caching is only safe for names that change whenever the content does. */
const HASHED_ASSET = /^_assets\/(?:.*\/)?[^/]*[.-][0-9a-f]{8,64}\.[A-Za-z0-9]+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else is revalidated with its ETag on every use, so a new version shows at once. */
const REVALIDATE = 'no-cache';

/** True for a content-hashed asset path (`_assets/theme.3f2a1b9c.css`). */
export function isHashedAsset(path: string): boolean {
  return HASHED_ASSET.test(path);
}

/**
 * Builds the in-memory table of an extracted version from its manifest and extras (sizes,
 * hashes, variants), so serving never stats the disk. Reads two small JSON files: this is
 * what makes a restart serve at once without refetching or re-hashing.
 */
export async function loadSiteVersion(
  id: string,
  layout: VersionLayout,
  /** The manifest and extras just installed, when the caller holds them: not read and parsed again. */
  known?: { manifest: BundleManifest; extras: Record<string, FileExtras> },
  /** Variants the deployer made or checked already (served at once); without it every recorded one is checked first. */
  verified?: VerifiedVariants,
): Promise<SiteVersion> {
  const manifest: BundleManifest = known?.manifest ?? storedManifestSchema.parse(JSON.parse(await readFile(layout.manifest, 'utf8')));
  const extras = known?.extras ?? (JSON.parse(await readFile(layout.extras, 'utf8')) as Record<string, FileExtras>);
  const files = new Map<string, ServedFile>();
  // Served only in place of the site-wide search index and llms files, by reader (VersionAccess).
  const audienceFiles = new Map<string, ServedFile>();
  const tryIt = tryItPages(manifest);
  // Served paths are built on the version directory's real path: openVersionFile then refuses
  // any file whose opened path differs, i.e. one reached through a symlink inside the version.
  const own = await realFolders(layout);
  // A layered version reads its unchanged files from the folders of the versions holding them.
  const origins = await readVersionOrigins(layout.origins);
  const held = await Promise.all((origins?.holders ?? []).map((id) => realFolders(versionLayout(dirname(layout.dir), id))));
  const unsettled: UnsettledFile[] = [];
  for (const entry of manifest.files) {
    const index = origins?.files[entry.path];
    // The verifier already refused unsafe names; the resolve-and-prefix check is done again
    // here, once per file, so no request can ever be answered from outside the version.
    const audienceFile = entry.path.startsWith(AUDIENCES_PREFIX);
    if (!(isServable(entry.path) || audienceFile) || !staysInside(entry.path)) continue;
    const place = { ...(index === undefined ? own : held[index]), own: index === undefined };
    const file = servedFile(entry, place, extras[entry.path] ?? {}, { tryIt, verified }, unsettled);
    (audienceFile ? audienceFiles : files).set(entry.path, file);
  }
  const pagePaths = new Set(manifest.pages.map((p) => normalizePagePath(p.path)));
  const mapAt = origins?.files[ACCESS_MAP_PATH];
  const access = await loadVersionAccess(manifest, mapAt === undefined ? own.files : held[mapAt].files, audienceFiles);
  return new SiteVersion(id, manifest.version, manifest.domain, layout.dir, files, pagePaths, access, origins?.holders ?? [], unsettled);
}

/**
 * One file's table entry. Variants whose compression was deferred, or made after an earlier
 * switch (so not yet checked against their recorded SHA-256), are left out and listed in
 * `unsettled` for settleVariants: until it adds them, the file is served as identity.
 */
function servedFile(
  entry: { path: string; size: number; sha256: string },
  place: { files: string; encoded: string; own: boolean },
  extra: FileExtras,
  { tryIt, verified }: { tryIt: ReadonlyMap<string, string[]>; verified?: VerifiedVariants },
  unsettled: UnsettledFile[],
): ServedFile {
  const type = siteFileType(entry.path);
  // 64 bits of the content hash tell one file's versions apart; every response carries it.
  const tag = entry.sha256.slice(0, 16);
  // Plain concatenation: staysInside has made sure the name needs no normalizing (join costs
  // tens of milliseconds over 20,000 files).
  const encodedBase = `${place.encoded}/${entry.path}`;
  const identity = `${place.files}/${entry.path}`;
  const recorded = recordedVariants(extra);
  const settled = !extra.deferred && (recorded === undefined || checkedBefore(encodedBase, recorded, verified));
  if (!settled) unsettled.push({ ...entry, identity, encodedBase, own: place.own, recorded });
  return {
    path: entry.path,
    contentType: type.contentType,
    cacheControl: isHashedAsset(entry.path) ? IMMUTABLE : REVALIDATE,
    identity: { absPath: identity, size: entry.size, etag: `"${tag}"` },
    gzip: extra.gzip === undefined || !settled ? undefined : { absPath: `${encodedBase}.gz`, size: extra.gzip, etag: `"${tag}-gz"` },
    br: extra.br === undefined || !settled ? undefined : { absPath: `${encodedBase}.br`, size: extra.br, etag: `"${tag}-br"` },
    scriptHashes: extra.scriptHashes,
    tryItOrigins: tryIt.get(entry.path),
    headPolicies: extra.headPolicies,
  };
}

/** The variants a file's extras record with their SHA-256 (made after a switch); undefined for a deferred file. */
function recordedVariants(extra: FileExtras): UnsettledFile['recorded'] {
  const sha = extra.variantSha256;
  if (extra.deferred || !sha) return undefined;
  return {
    gzip: extra.gzip === undefined || sha.gzip === undefined ? undefined : { size: extra.gzip, sha256: sha.gzip },
    br: extra.br === undefined || sha.br === undefined ? undefined : { size: extra.br, sha256: sha.br },
  };
}

/** Whether every recorded variant was made or checked by this process already (see verifiedVariants). */
function checkedBefore(encodedBase: string, recorded: NonNullable<UnsettledFile['recorded']>, verified?: VerifiedVariants): boolean {
  const { gzip, br } = recorded;
  if (!verified) return false;
  return (!gzip || verified.has(`${encodedBase}.gz`, gzip.sha256)) && (!br || verified.has(`${encodedBase}.br`, br.sha256));
}

/** The real paths of a version's served and encoded folders (the version folder must exist). */
async function realFolders(layout: VersionLayout): Promise<{ files: string; encoded: string }> {
  const root = await realpath(layout.dir);
  return { files: join(root, relative(layout.dir, layout.files)), encoded: join(root, relative(layout.dir, layout.encoded)) };
}

/** A CSP source for one origin: scheme, host name or bracketed IPv6 address, optional port; nothing else. */
const ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/**
 * The pages the manifest lists with a "Try it" form, by file, with the origins they may reach.
 * Origins that are not plain `scheme://host[:port]` are dropped: the value goes into a header.
 */
function tryItPages(manifest: BundleManifest): Map<string, string[]> {
  const pages = new Map<string, string[]>();
  for (const page of manifest.pages) {
    const tryIt = (page as { tryIt?: { connect?: unknown } }).tryIt;
    if (!tryIt || typeof tryIt !== 'object') continue;
    const connect = Array.isArray(tryIt.connect) ? tryIt.connect : [];
    pages.set(
      page.file,
      connect.filter((o): o is string => typeof o === 'string' && ORIGIN.test(o)),
    );
  }
  return pages;
}

/**
 * Whether bundle-relative `path` names a file inside the version folder: no leading slash,
 * backslash or NUL, no empty, `.` or `..` segment. The verifier refused every other name; this
 * string check (no path resolution: it runs for each of tens of thousands of files at every
 * switch) makes sure again that no request is ever answered from outside the version.
 */
function staysInside(path: string): boolean {
  if (path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
  return !path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..');
}

/** Where a bundle keeps each audience's search index and llms files. */
const AUDIENCES_PREFIX = '_enclave/audiences/';

/** Dotfiles and the bundle's own metadata are never served. */
function isServable(path: string): boolean {
  if (path.startsWith('_enclave/')) return false;
  return !path.split('/').some((segment) => segment.startsWith('.'));
}

/** `/`, `/guides/start`: leading slash, no extension or trailing slash, whichever form the manifest used. */
function normalizePagePath(path: string): string {
  const clean = posix
    .normalize(`/${path}`)
    .replace(/\.html$/, '')
    .replace(/\/index$/, '/');
  return clean.length > 1 ? clean.replace(/\/$/, '') : '/';
}
