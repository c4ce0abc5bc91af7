import { rm } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { SiteVersion } from './SiteVersion.js';
import { versionLayout } from './versionLayout.js';

/**
 * Deletes pruned versions from disk and memory. A version still answering requests is deleted
 * when its last one finishes; the others give their cached bodies back and go now.
 */
export async function retireSiteVersions(
  ids: Iterable<string>,
  loaded: Map<string, SiteVersion>,
  versionsDir: string,
  logger: Logger,
): Promise<void> {
  for (const id of ids) {
    const dir = versionLayout(versionsDir, id).dir;
    const remove = () =>
      rm(dir, { recursive: true, force: true }).catch((err) => logger.error({ err, dir }, 'could not delete an old site version'));
    const version = loaded.get(id);
    loaded.delete(id);
    if (version?.inUse()) version.retire(() => void remove());
    else {
      version?.retire(() => {}); // gives its cached bodies back now
      await remove();
    }
  }
}
