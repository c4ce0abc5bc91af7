import { readFile } from 'node:fs/promises';
import { storedManifestSchema } from '../../bundle/bundleManifest.js';
import { fileFingerprint, type LinkBase } from '../../bundle/install/LinkBase.js';
import type { FileExtras } from '../../bundle/install/precompressSiteFiles.js';
import { versionLayout } from './versionLayout.js';

/**
 * The live version as the base a new one links its unchanged files from (see LinkBase), read
 * from the manifest and extras stored with it; undefined without a live version or when those
 * can't be read (the new version is then written in full, as before).
 */
export async function liveLinkBase(versionsDir: string, liveId: string | undefined): Promise<LinkBase | undefined> {
  if (liveId === undefined) return undefined;
  const layout = versionLayout(versionsDir, liveId);
  try {
    const manifest = storedManifestSchema.parse(JSON.parse(await readFile(layout.manifest, 'utf8')));
    const extras = JSON.parse(await readFile(layout.extras, 'utf8')) as Record<string, FileExtras>;
    return {
      filesDir: layout.files,
      encodedDir: layout.encoded,
      fingerprints: new Map(manifest.files.map((f) => [f.path, fileFingerprint(f)])),
      extras,
    };
  } catch {
    return undefined;
  }
}
