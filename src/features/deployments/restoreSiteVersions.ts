import { mkdir, readdir, rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/Clock.js';
import type { DeploymentRepository } from './DeploymentRepository.js';
import { loadSiteVersion } from './loadSiteVersion.js';
import type { SiteVersion } from './SiteVersion.js';
import { versionLayout } from './versionLayout.js';
import { readVersionOrigins } from './VersionOrigins.js';

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
  // Versions layered over others read files from their folders (VersionOrigins): those stay.
  const held = new Set<string>();
  for (const { id } of onDisk) {
    const origins = await readVersionOrigins(versionLayout(dirs.versions, id).origins).catch(() => null);
    for (const holder of origins?.holders ?? []) held.add(holder);
  }
  for (const name of await unclaimedFolders(dirs.versions, claimed, held))
    await rm(versionLayout(dirs.versions, name).dir, { recursive: true, force: true });
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

/** Folders under `versionsDir` that no record claims and no kept version reads from (staging ones included). */
export async function unclaimedFolders(versionsDir: string, claimed: ReadonlySet<string>, held: ReadonlySet<string>): Promise<string[]> {
  const names = await readdir(versionsDir).catch(() => [] as string[]);
  return names.filter((name) => !claimed.has(name) && !held.has(name));
}
