import { readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { DeploymentsData } from './deploymentStore.js';
import { siteDirs } from './versionLayout.js';

/** The versions a site with deployments of its own keeps on disk. */
export interface SiteVersionsOnDisk {
  /** The live version's label, or null when none is live. */
  live: string | null;
  /** Every version on disk (live and kept), newest first. */
  versions: string[];
}

/**
 * What a site with deployments of its own has on disk (from its `deployments.json`), or null
 * when it has none: its Host is answered by the default site. Read without the deployments
 * store, so the CLI can say what `sites remove` deletes while no server runs.
 */
export async function readSiteVersions(dataDir: string, domain: string): Promise<SiteVersionsOnDisk | null> {
  let data: DeploymentsData;
  try {
    data = JSON.parse(await readFile(siteDirs(dataDir, domain.toLowerCase()).state, 'utf8'));
  } catch {
    return null;
  }
  const onDisk = data.deployments.filter((d) => d.status === 'active' || d.status === 'kept');
  return {
    live: onDisk.find((d) => d.id === data.activeId)?.version ?? null,
    versions: onDisk.map((d) => d.version ?? d.id),
  };
}

/**
 * Deletes a removed site's deployments (its state file and every extracted version): a site
 * removed stays removed, its versions don't linger on the volume unserved. Call it only once
 * nothing deploys to or serves the site any more.
 */
export async function removeSiteDeployments(dataDir: string, domain: string): Promise<void> {
  await rm(dirname(siteDirs(dataDir, domain.toLowerCase()).state), { recursive: true, force: true, maxRetries: 3 });
}
