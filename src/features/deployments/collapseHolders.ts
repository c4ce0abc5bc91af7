import type { Logger } from 'pino';
import { flattenVersion } from './flattenVersion.js';
import { loadSiteVersion } from './loadSiteVersion.js';
import { unclaimedFolders } from './restoreSiteVersions.js';
import { retireSiteVersions } from './retireSiteVersions.js';
import type { SiteVersion } from './SiteVersion.js';
import { versionLayout } from './versionLayout.js';
import type { VerifiedVariants } from './VerifiedVariants.js';

/** What collapseHolders did: the tables it replaced, and the holders that must stay on disk. */
export interface CollapsedHolders {
  /** The loaded tables that were replaced (retire them; requests may still be using them). */
  replaced: SiteVersion[];
  /** Versions some loaded version still reads files from: never delete these folders. */
  stillHeld: Set<string>;
}

/**
 * Retention's half of layered versions: every loaded version that reads files from a version
 * not in `onDisk` (pruned, or left over by a crash) gets its own links to those files
 * (flattenVersion) and a new table, replaced in `versions`. A version that can't be flattened
 * keeps its table and its holders stay (reported in `stillHeld`), so nothing served is deleted.
 */
export async function collapseHolders(
  versions: Map<string, SiteVersion>,
  onDisk: ReadonlySet<string>,
  versionsDir: string,
  logger: Logger,
  verified?: VerifiedVariants,
): Promise<CollapsedHolders> {
  const replaced: SiteVersion[] = [];
  const stillHeld = new Set<string>();
  for (const version of [...versions.values()]) {
    if (!onDisk.has(version.id)) continue;
    const drop = new Set(version.holders.filter((h) => !onDisk.has(h)));
    try {
      if (drop.size > 0 && (await flattenVersion(versionsDir, version.id, drop))) {
        versions.set(version.id, await loadSiteVersion(version.id, versionLayout(versionsDir, version.id), undefined, verified));
        replaced.push(version);
      }
    } catch (err) {
      logger.error(
        { err, deploymentId: version.id },
        'could not give a layered version its own copies of older files; the older versions stay on disk',
      );
    }
    for (const holder of versions.get(version.id)!.holders) stillHeld.add(holder);
  }
  return { replaced, stillHeld };
}

/**
 * Gives layered versions their own links to files in versions not in `onDisk` (collapseHolders),
 * re-publishes if a table changed, then deletes `doomed` versions' folders and any other folder
 * no kept version reads from, once no request uses the tables they replace.
 */
export async function collapseAndRetire(
  deps: {
    versions: Map<string, SiteVersion>;
    onDisk: ReadonlySet<string>;
    versionsDir: string;
    logger: Logger;
    publish: () => void;
    verified?: VerifiedVariants;
  },
  doomed: Iterable<string>,
): Promise<void> {
  const { versions, onDisk, versionsDir, logger } = deps;
  const { replaced, stillHeld } = await collapseHolders(versions, onDisk, versionsDir, logger, deps.verified);
  if (replaced.length) deps.publish();
  const freed = await unclaimedFolders(versionsDir, onDisk, stillHeld);
  const gone = [...new Set([...doomed, ...freed])].filter((id) => !stillHeld.has(id));
  await afterRetiring(replaced, () => retireSiteVersions(gone, versions, versionsDir, logger), logger);
}

/**
 * Runs `then` once no request uses any of `tables` any more: at once (awaited) when none is in
 * use, else later, when the last request leaves (a slow client never holds up a deployment).
 */
async function afterRetiring(tables: readonly SiteVersion[], then: () => Promise<void>, logger: Logger): Promise<void> {
  const busy = tables.some((t) => t.inUse());
  const idle = Promise.all(tables.map((t) => new Promise<void>((resolve) => t.retire(resolve))));
  if (!busy) return then();
  void idle.then(then).catch((err) => logger.error({ err }, 'could not delete old site versions'));
}
