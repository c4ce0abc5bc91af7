import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** `_enclave/manifest.json` (SPEC section 4). */
export interface BundleManifest {
  formatVersion: 1;
  domain: string;
  version: string;
  jobId: string;
  createdAt: string;
  generator: { name: 'enclave'; version: string };
  pages: { path: string; title: string; file: string }[];
  files: { path: string; size: number; sha256: string }[];
}

export const MANIFEST_PATH = '_enclave/manifest.json';

/** Hashes every file in the bundle (except the manifest itself) and writes the manifest. */
export async function writeManifest(outDir: string, base: Omit<BundleManifest, 'files' | 'formatVersion'>): Promise<BundleManifest> {
  const files: BundleManifest['files'] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(join(dir, e.name), childRel);
      else if (e.isFile() && childRel !== MANIFEST_PATH) {
        const full = join(dir, e.name);
        files.push({ path: childRel, size: (await stat(full)).size, sha256: await sha256File(full) });
      }
    }
  };
  await walk(outDir, '');
  const manifest: BundleManifest = { formatVersion: 1, ...base, files };
  await writeFile(join(outDir, MANIFEST_PATH), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file).on('data', (d) => hash.update(d)).on('error', reject).on('end', () => resolve(hash.digest('hex')));
  });
}
