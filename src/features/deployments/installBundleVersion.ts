import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BundleManifest } from '../../bundle/bundleManifest.js';
import { extractBundle } from '../../bundle/install/extractBundle.js';
import { precompressSiteFiles } from '../../bundle/install/precompressSiteFiles.js';
import { syncTree } from '../../bundle/install/syncTree.js';
import type { FileExtras } from '../../bundle/install/FileExtras.js';
import type { InstallPhase } from '../../bundle/install/InstallPhase.js';
import type { BundleLimits } from '../../bundle/install/verifyBundle.js';
import { liveLinkBase } from './liveLinkBase.js';
import { fsyncDirectory, writeFileDurably } from '../../platform/store/writeFileDurably.js';
import { storedManifests } from './StoredRecords.js';
import { versionLayout, type VersionLayout } from './versionLayout.js';
import { storedOrigins, type VersionOrigins, versionOrigins, writeVersionOrigins } from './VersionOrigins.js';

/** A version directory that is complete and durable, ready to go live. */
export interface InstalledVersion {
  layout: VersionLayout;
  manifest: BundleManifest;
  /** FileExtras by path, as stored in the version's extras.json. */
  extras: Record<string, FileExtras>;
  fileCount: number;
  extractedBytes: number;
  /** Files linked from the live version, or left in the folders it reads them from, rather than written (0 without one). */
  linkedFiles: number;
  /** Whether the version is layered over others (it has a VersionOrigins record). */
  layered: boolean;
}

/** What an install may be given besides the bundle and where it goes. */
export interface InstallOptions {
  /** Runs on the extracted files and manifest before the costly precompression; throwing refuses the bundle. */
  inspect?: (filesDir: string, manifest: BundleManifest) => Promise<void>;
  /** The live version's id: files unchanged since it are linked from it, not written again (see LinkBase). */
  liveId?: string;
  /**
   * Layer the new version over the live one: its folder holds only what changed, the rest is
   * read from the folders the live version's files are in (VersionOrigins), so an install costs
   * what changed, not the site's size. Without it unchanged files are hard-linked.
   */
  layered?: boolean;
  /**
   * Bytes of changed files compressed before the install returns (smallest first); the rest are
   * marked deferred in the extras, for settleVariants to compress once the version is live.
   * Unset: everything is compressed first.
   */
  inlineBudget?: number;
  /** Told as each step ends (bench/deployPhases.ts). */
  phase?: InstallPhase;
}

/**
 * Verifies and extracts a bundle into `<versionsDir>/<id>.partial`, precompresses it, makes
 * the whole tree durable, then renames it to `<versionsDir>/<id>`: a directory with the final name is always
 * complete, and a crash leaves only a `.partial` that the next start deletes. On any failure
 * the staging directory is removed and the error rethrown. Files (and their precompressed
 * variants) unchanged since the live version `liveId` are hard-linked from it: a version that
 * differs from the live one in a few pages writes only those. Its manifest and origins are
 * remembered (StoredRecords): the next install over it does not read and validate them again.
 */
export async function installBundleVersion(
  zipPath: string,
  versionsDir: string,
  id: string,
  limits: BundleLimits,
  pin: string | null,
  { inspect, liveId, layered = false, inlineBudget, phase = () => {} }: InstallOptions = {},
): Promise<InstalledVersion> {
  const base = await liveLinkBase(versionsDir, liveId, layered);
  phase('live manifest');
  const staging = versionLayout(versionsDir, `${id}.partial`);
  await mkdir(versionsDir, { recursive: true, mode: 0o755 });
  await rm(staging.dir, { recursive: true, force: true });
  await mkdir(staging.dir, { mode: 0o755 });
  try {
    const extracted = await extractBundle(zipPath, staging.files, limits, pin, base, phase);
    await inspect?.(staging.files, extracted.manifest);
    phase('inspect');
    await writeFileDurably(staging.manifest, JSON.stringify(extracted.manifest), 0o644);
    const served = extracted.manifest.files.filter((f) => !f.path.startsWith('_enclave/'));
    const reuse = base && { base, linked: extracted.linked };
    const extras = await precompressSiteFiles(staging.files, staging.encoded, served, reuse, inlineBudget);
    phase('precompress');
    await writeFileDurably(staging.extras, JSON.stringify(extras), 0o644);
    const referred = [...(extracted.referred ?? [])];
    const origins = base ? versionOrigins(new Map(referred.map((path) => [path, base.holderOf(path)]))) : null;
    if (origins) await writeVersionOrigins(staging.origins, origins);
    phase('manifest, extras written');
    // Nothing so far was fsynced one by one: the whole tree is made durable in one step.
    const own = (path: string) => !(origins && path in origins.files);
    const written = [
      ...extracted.manifest.files.filter((f) => own(f.path)).map((f) => join(staging.files, f.path)),
      ...Object.entries(extras)
        .filter(([path]) => own(path))
        .flatMap(([path, e]) =>
          [...(e.gzip === undefined ? [] : ['.gz']), ...(e.br === undefined ? [] : ['.br'])].map((ext) =>
            join(staging.encoded, `${path}${ext}`),
          ),
        ),
    ];
    await syncTree(staging.dir, written);
    phase('fsync');
    const layout = versionLayout(versionsDir, id);
    await rename(staging.dir, layout.dir);
    await Promise.all([fsyncDirectory(versionsDir), rememberRecords(layout, extracted.manifest, origins)]);
    phase('rename');
    return {
      layout,
      manifest: extracted.manifest,
      extras,
      fileCount: extracted.fileCount,
      extractedBytes: extracted.extractedBytes,
      linkedFiles: extracted.linked.size,
      layered: origins !== null,
    };
  } catch (err) {
    await rm(staging.dir, { recursive: true, force: true });
    throw err;
  }
}

/** Remembers the records just written into the version at `layout` (StoredRecords), for the version table and the next install. */
async function rememberRecords(layout: VersionLayout, manifest: BundleManifest, origins: VersionOrigins | null): Promise<void> {
  await Promise.all([storedManifests.remember(layout.manifest, manifest), origins && storedOrigins.remember(layout.origins, origins)]);
}
