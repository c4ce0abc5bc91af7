import { mkdir, readdir, rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/Clock.js';
import type { DeploymentRepository } from './DeploymentRepository.js';
import { loadSiteVersion } from './loadSiteVersion.js';
import type { SiteVersion } from './SiteVersion.js';
import { versionLayout } from './versionLayout.js';

/**
 * Startup recovery of the site area: deployments left `running` by a crash are marked
 * failed, staging directories, stray downloads and directories no record claims are deleted,
 * and the active and kept versions are loaded from disk so the site answers before any fetch.
 * A version whose files can't be loaded is dropped (and reported) instead of stopping startup.
 */
export async function restoreSiteVersions(
  deployments: DeploymentRepository,
  dirs: { versions: string; incoming: string },
  clock: Clock,
  logger: Logger,
): Promise<SiteVersion[]> {
  const now = clock.now().toISOString();
  await mkdir(dirs.versions, { recursive: true, mode: 0o755 });
  await rm(dirs.incoming, { recursive: true, force: true });
  const onDisk = deployments.onDisk();
  const claimed = new Set(onDisk.map((d) => d.id));
  for (const name of await readdir(dirs.versions)) {
    if (!claimed.has(name)) await rm(versionLayout(dirs.versions, name).dir, { recursive: true, force: true });
  }
  const loaded: SiteVersion[] = [];
  const broken: { id: string; reason: string }[] = [];
  for (const record of onDisk) {
    try {
      loaded.push(await loadSiteVersion(record.id, versionLayout(dirs.versions, record.id)));
    } catch (err) {
      const reason = `stored version ${record.version} (${record.id}) could not be loaded: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
      logger.error({ deploymentId: record.id }, reason);
      broken.push({ id: record.id, reason });
    }
  }
  await deployments.recoverAfterRestart(now, broken);
  return loaded;
}
