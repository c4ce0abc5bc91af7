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
  /** A layered version's record of which other versions hold its unchanged files (VersionOrigins). */
  origins: string;
}

/** Where one site's deployments live: its state file, extracted versions and incoming downloads. */
export interface SiteDirs {
  state: string;
  versions: string;
  incoming: string;
}

/**
 * The site area of the data directory. The default site keeps the single-site layout
 * (`deployments.json`, `site/versions`), so an upgraded appliance keeps serving what it served;
 * a site with its own deployments gets `site/by-domain/<domain>/` (domains are validated host
 * names, safe as one path segment).
 */
export function siteDirs(dataDir: string, domain: string | null = null): SiteDirs {
  if (domain === null)
    return {
      state: join(dataDir, 'deployments.json'),
      versions: join(dataDir, 'site', 'versions'),
      incoming: join(dataDir, 'site', 'incoming'),
    };
  const root = join(siteDomainsDir(dataDir), domain);
  return { state: join(root, 'deployments.json'), versions: join(root, 'versions'), incoming: join(root, 'incoming') };
}

/** The layout of version `id` under `versionsDir` (`dir` may be a `.partial` staging name). */
export function versionLayout(versionsDir: string, dirName: string): VersionLayout {
  const dir = join(versionsDir, dirName);
  return {
    dir,
    files: join(dir, 'files'),
    encoded: join(dir, 'encoded'),
    manifest: join(dir, 'manifest.json'),
    extras: join(dir, 'extras.json'),
    origins: join(dir, 'origins.json'),
  };
}

/** Where sites with deployments of their own keep them, one folder per domain. */
export function siteDomainsDir(dataDir: string): string {
  return join(dataDir, 'site', 'by-domain');
}
