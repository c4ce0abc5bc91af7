import { join } from 'node:path';

/** Where one extracted version keeps its parts; only `files` is ever served. */
export interface VersionLayout {
  dir: string;
  /** The site, exactly as listed in the manifest. */
  files: string;
  /** Precompressed variants (`<path>.gz`, `<path>.br`), outside the served tree. */
  encoded: string;
  /** A copy of the bundle's manifest. */
  manifest: string;
  /** FileExtras per path (variant sizes, inline-script hashes). */
  extras: string;
}

/** The site area of the data directory: versions and incoming downloads. */
export function siteDirs(dataDir: string): { versions: string; incoming: string } {
  return { versions: join(dataDir, 'site', 'versions'), incoming: join(dataDir, 'site', 'incoming') };
}

/** The layout of version `id` under `versionsDir` (`dir` may be a `.partial` staging name). */
export function versionLayout(versionsDir: string, dirName: string): VersionLayout {
  const dir = join(versionsDir, dirName);
  return { dir, files: join(dir, 'files'), encoded: join(dir, 'encoded'), manifest: join(dir, 'manifest.json'), extras: join(dir, 'extras.json') };
}
