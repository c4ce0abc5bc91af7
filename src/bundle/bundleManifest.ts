import { z } from 'zod';
import { BARE_HOSTNAME } from '../platform/bareHostname.js';
import { VERSION_LABEL, VERSION_LABEL_RULE } from '../platform/versionLabel.js';
import type { BundleSink } from './BundleSink.js';

/** Where the manifest sits inside a bundle. */
export const MANIFEST_PATH = '_enclave/manifest.json';

/**
 * `_enclave/manifest.json` as stored with an installed version. Lenient on `domain` and
 * `version` so a version installed before the rules below still loads.
 */
export const storedManifestSchema = z.object({
  formatVersion: z.literal(1),
  domain: z.string().min(1).max(253),
  version: z.string().min(1).max(200),
  jobId: z.string().max(200).nullable().optional(),
  createdAt: z.string().min(1),
  generator: z.object({ name: z.string(), version: z.string() }),
  pages: z.array(z.object({ path: z.string().max(1024), title: z.string(), file: z.string().min(1) }).loose()),
  files: z.array(
    z.object({
      path: z.string().min(1).max(1024),
      size: z.number().int().nonnegative(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hex digits'),
    }),
  ),
});

/**
 * The manifest as the deployment side accepts it (SPEC section 4, "The bundle"). `domain` and
 * `version` end up in logs, the API and the CLI's terminal: only a host name and a plain
 * label get in, never an escape sequence.
 */
export const bundleManifestSchema = storedManifestSchema.extend({
  domain: z.string().regex(BARE_HOSTNAME, 'domain must be a bare host name'),
  version: z.string().regex(VERSION_LABEL, `version ${VERSION_LABEL_RULE}`),
});

/** A parsed, well-formed bundle manifest. */
export type BundleManifest = z.infer<typeof bundleManifestSchema>;

/** What the renderer supplies for a manifest; the file list comes from the sink. */
export type ManifestFields = Omit<BundleManifest, 'files' | 'formatVersion'>;

/** Writes the manifest, listing every file written so far (the sink hashed each as it arrived). */
export async function writeManifest(out: BundleSink, fields: ManifestFields): Promise<BundleManifest> {
  const manifest: BundleManifest = { formatVersion: 1, ...fields, files: out.files().filter((f) => f.path !== MANIFEST_PATH) };
  await out.write(MANIFEST_PATH, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
