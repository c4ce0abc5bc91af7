import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BundleManifest } from '../../bundle/bundleManifest.js';
import { extractBundle } from '../../bundle/install/extractBundle.js';
import { precompressSiteFiles } from '../../bundle/install/precompressSiteFiles.js';
import { syncTree } from '../../bundle/install/syncTree.js';
import type { BundleLimits } from '../../bundle/install/verifyBundle.js';
import { liveLinkBase } from './liveLinkBase.js';
import { fsyncDirectory, writeFileDurably } from '../../platform/store/writeFileDurably.js';
import { versionLayout, type VersionLayout } from './versionLayout.js';

/** A version directory that is complete and durable, ready to go live. */
export interface InstalledVersion {
  layout: VersionLayout;
  manifest: BundleManifest;
  fileCount: number;
  extractedBytes: number;
  /** Files linked from the live version rather than written (0 without one). */
  linkedFiles: number;
}

/**
 * Verifies and extracts a bundle into `<versionsDir>/<id>.partial`, precompresses it, makes
 * the whole tree durable, then renames it to `<versionsDir>/<id>`: a directory with the final name is always
 * complete, and a crash leaves only a `.partial` that the next start deletes. On any failure
 * the staging directory is removed and the error rethrown. Files (and their precompressed
 * variants) unchanged since the live version `liveId` are hard-linked from it: a version that
 * differs from the live one in a few pages writes only those.
 */
export async function installBundleVersion(
  zipPath: string,
  versionsDir: string,
  id: string,
  limits: BundleLimits,
  pin: string | null,
  /** Runs on the extracted files and manifest before the costly precompression; throwing refuses the bundle. */
  inspect?: (filesDir: string, manifest: BundleManifest) => Promise<void>,
  /** The live version's id: files unchanged since it are linked from it, not written again (see LinkBase). */
  liveId?: string,
): Promise<InstalledVersion> {
  const base = await liveLinkBase(versionsDir, liveId);
  const staging = versionLayout(versionsDir, `${id}.partial`);
  await mkdir(versionsDir, { recursive: true, mode: 0o755 });
  await rm(staging.dir, { recursive: true, force: true });
  await mkdir(staging.dir, { mode: 0o755 });
  try {
    const extracted = await extractBundle(zipPath, staging.files, limits, pin, base);
    await inspect?.(staging.files, extracted.manifest);
    await writeFileDurably(staging.manifest, JSON.stringify(extracted.manifest), 0o644);
    const served = extracted.manifest.files.filter((f) => !f.path.startsWith('_enclave/'));
    const extras = await precompressSiteFiles(staging.files, staging.encoded, served, base && { base, linked: extracted.linked });
    await writeFileDurably(staging.extras, JSON.stringify(extras), 0o644);
    // Nothing so far was fsynced one by one: the whole tree is made durable in one step.
    const written = [
      ...extracted.manifest.files.map((f) => join(staging.files, f.path)),
      ...Object.entries(extras).flatMap(([path, e]) =>
        [...(e.gzip === undefined ? [] : ['.gz']), ...(e.br === undefined ? [] : ['.br'])].map((ext) =>
          join(staging.encoded, `${path}${ext}`),
        ),
      ),
    ];
    await syncTree(staging.dir, written);
    const layout = versionLayout(versionsDir, id);
    await rename(staging.dir, layout.dir);
    await fsyncDirectory(versionsDir);
    return {
      layout,
      manifest: extracted.manifest,
      fileCount: extracted.fileCount,
      extractedBytes: extracted.extractedBytes,
      linkedFiles: extracted.linked.size,
    };
  } catch (err) {
    await rm(staging.dir, { recursive: true, force: true });
    throw err;
  }
}
