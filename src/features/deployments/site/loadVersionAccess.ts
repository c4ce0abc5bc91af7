import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BundleManifest } from '../../../bundle/bundleManifest.js';
import { ACCESS_MAP_PATH, accessMapSchema } from '../../../platform/access/PageAccess.js';
import type { ServedFile } from '../SiteVersion.js';
import { VersionAccess } from './VersionAccess.js';

/**
 * Reader access of an extracted version: its access map when the bundle has one (checked
 * against its schema: a bundle whose map is damaged fails to load rather than open its pages),
 * which files show each page's content (the page's HTML and its Markdown copy), and which
 * assets only some readers may load.
 */
export async function loadVersionAccess(
  manifest: BundleManifest,
  filesDir: string,
  audienceFiles: ReadonlyMap<string, ServedFile>,
): Promise<VersionAccess> {
  const hasMap = manifest.files.some((f) => f.path === ACCESS_MAP_PATH);
  const parsed = hasMap ? accessMapSchema.parse(JSON.parse(await readFile(join(filesDir, ACCESS_MAP_PATH), 'utf8'))) : null;
  // A map building no audience marks no page: it was written for its restricted assets alone.
  const map = parsed && parsed.audiences.length > 0 ? parsed : null;
  const pageOfFile = new Map<string, string>();
  for (const page of manifest.pages) {
    pageOfFile.set(page.file, page.path);
    pageOfFile.set(`${page.path}.md`, page.path);
  }
  return new VersionAccess(map, pageOfFile, audienceFiles, parsed?.assets ?? {});
}
