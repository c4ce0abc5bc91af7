import { BundleRefusedError } from '../BundleRefusedError.js';
import { bundleManifestSchema, MANIFEST_PATH, type BundleManifest } from '../bundleManifest.js';

/** Largest manifest read into memory. */
export const MAX_MANIFEST_BYTES = 32 * 1024 * 1024;

/** The manifest's bytes as a checked BundleManifest; a refusal says what is wrong with it. */
export function parseManifest(data: Buffer): BundleManifest {
  let json: unknown;
  try {
    json = JSON.parse(data.toString('utf8'));
  } catch {
    throw new BundleRefusedError(`manifest ${MANIFEST_PATH} is not valid JSON`);
  }
  const parsed = bundleManifestSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new BundleRefusedError(`manifest ${MANIFEST_PATH} is malformed: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/**
 * The manifest and the archive must describe the same set of files with the same sizes; the pin,
 * when set, must equal the manifest's version. Returns the expected size and hash per path.
 */
export function checkManifestAgainstEntries(
  manifest: BundleManifest,
  files: readonly { name: string; uncompressedSize: number }[],
  pin: string | null,
): Map<string, { size: number; sha256: string }> {
  if (pin !== null && manifest.version !== pin)
    throw new BundleRefusedError(`bundle version "${manifest.version}" does not match the pinned version "${pin}"`);
  const expected = new Map<string, { size: number; sha256: string }>();
  for (const file of manifest.files) {
    if (file.path === MANIFEST_PATH) throw new BundleRefusedError('manifest lists itself');
    if (expected.has(file.path)) throw new BundleRefusedError(`manifest lists ${JSON.stringify(file.path)} twice`);
    expected.set(file.path, { size: file.size, sha256: file.sha256 });
  }
  const inZip = new Set<string>();
  for (const entry of files) {
    if (entry.name === MANIFEST_PATH) continue;
    inZip.add(entry.name);
    const want = expected.get(entry.name);
    if (!want) throw new BundleRefusedError(`file ${JSON.stringify(entry.name)} is in the zip but not in the manifest`);
    if (want.size !== entry.uncompressedSize)
      throw new BundleRefusedError(
        `size of ${JSON.stringify(entry.name)} does not match the manifest (${entry.uncompressedSize} vs ${want.size})`,
      );
  }
  for (const path of expected.keys())
    if (!inZip.has(path)) throw new BundleRefusedError(`file ${JSON.stringify(path)} is in the manifest but missing from the zip`);
  for (const page of manifest.pages) {
    if (!expected.has(page.file))
      throw new BundleRefusedError(`page ${page.path} points to ${JSON.stringify(page.file)}, which the bundle does not hold`);
  }
  return expected;
}
