import type { BundleSink } from './BundleSink.js';

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

/** Writes the manifest, listing every file written so far (the sink hashed each as it arrived). */
export async function writeManifest(out: BundleSink, base: Omit<BundleManifest, 'files' | 'formatVersion'>): Promise<BundleManifest> {
  const manifest: BundleManifest = { formatVersion: 1, ...base, files: out.files().filter((f) => f.path !== MANIFEST_PATH) };
  await out.write(MANIFEST_PATH, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
