import { open, stat } from 'node:fs/promises';
import { BundleRefusedError } from '../BundleRefusedError.js';
import type { ExtractedBundle } from './ExtractedBundle.js';
import type { InstallPhase } from './InstallPhase.js';
import type { LinkBase } from './LinkBase.js';
import { extractTarBundle } from './extractTarBundle.js';
import { extractZipBundle } from './extractZipBundle.js';
import type { BundleLimits } from './verifyBundle.js';

export type { ExtractedBundle } from './ExtractedBundle.js';

/** gzip's magic bytes: a `.tar.gz` bundle. Anything else is read as a zip (and refused if it is none). */
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

/**
 * Verifies a bundle, a zip or a `.tar.gz` told apart by its first bytes (a link's file name
 * proves nothing), and extracts it into `filesDir` (which must not exist yet). Both formats
 * pass the same rules (verifyBundleEntries), the same manifest check and the same caps.
 */
export async function extractBundle(
  path: string,
  filesDir: string,
  limits: BundleLimits,
  pin: string | null,
  /** A version to link unchanged files from (see LinkBase); zip bundles only. */
  base?: LinkBase,
  phase?: InstallPhase,
): Promise<ExtractedBundle> {
  const size = (await stat(path)).size;
  if (size > limits.maxBundleBytes) throw new BundleRefusedError(`bundle is ${size} bytes (limit ${limits.maxBundleBytes})`);
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0);
    if (head.equals(GZIP_MAGIC)) return await extractTarBundle(path, size, filesDir, limits, pin);
    return await extractZipBundle(handle, size, filesDir, limits, pin, base, phase);
  } finally {
    await handle.close();
  }
}
