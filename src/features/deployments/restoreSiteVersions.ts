import { mkdir, readdir, rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { JsonStore } from '../../platform/store/JsonStore.js';
import type { Clock } from '../../platform/Clock.js';
import type { DeploymentsData } from './deploymentStore.js';
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
  store: JsonStore<DeploymentsData>,
  dirs: { versions: string; incoming: string },
  clock: Clock,
  logger: Logger,
): Promise<SiteVersion[]> {
  const now = clock.now().toISOString();
  await mkdir(dirs.versions, { recursive: true, mode: 0o755 });
  await rm(dirs.incoming, { recursive: true, force: true });
  const onDisk = store.data.deployments.filter((d) => d.status === 'active' || d.status === 'kept');
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
  const interrupted = store.data.deployments.some((d) => d.status === 'running');
  if (interrupted || broken.length) {
    await store.update((d) => {
      for (const r of d.deployments) {
        if (r.status === 'running') Object.assign(r, { status: 'failed', error: 'interrupted by a restart', finishedAt: now });
        const bad = broken.find((b) => b.id === r.id);
        if (bad) {
          if (d.activeId === r.id) {
            d.activeId = null;
            d.lastError = { at: now, source: r.source, reason: bad.reason };
          }
          Object.assign(r, { status: 'removed', error: bad.reason });
        }
      }
    });
  }
  return loaded;
}
