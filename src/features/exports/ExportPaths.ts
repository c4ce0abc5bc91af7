import { join } from 'node:path';

/** Where one job's files live in the data directory. */
export interface ExportPaths {
  /** Scratch space of the job (a git checkout of the source at a ref), removed once the job ends. */
  workDir: string;
  /** Holds the job's zip. */
  bundleDir: string;
}

/** Root of every job's work directory. */
export function exportsRoot(dataDir: string): string {
  return join(dataDir, 'exports');
}

/** Root of every job's bundle directory. */
export function bundlesRoot(dataDir: string): string {
  return join(dataDir, 'bundles');
}

/** The directories of job `jobId` (an `se_` id, so safe as a path segment). */
export function exportPaths(dataDir: string, jobId: string): ExportPaths {
  const workDir = join(exportsRoot(dataDir), jobId);
  return { workDir, bundleDir: join(bundlesRoot(dataDir), jobId) };
}

/**
 * A site's incremental-export cache (page bodies kept between its exports). Site domains hold
 * a dot or are `localhost`-like names, so none is the shared renderer cache's `render` folder.
 */
export function siteCacheDir(dataDir: string, domain: string): string {
  return join(dataDir, 'cache', domain.replace(/[^A-Za-z0-9._-]/g, '-'));
}

/** The persistent renderer cache (highlighting), shared by every job. */
export function renderCacheDir(dataDir: string): string {
  return join(dataDir, 'cache', 'render');
}
