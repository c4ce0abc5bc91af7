import type { Logger } from 'pino';
import type { Config } from '../../config/schema.js';
import type { Task } from '../../platform/Task.js';
import type { ExportCleanupResult } from './exportCleanup.js';
import type { ReexportEntry, ReexportOutcome } from './reexportSite.js';

/** The export feature's background work: retention, and one re-export task per `export.reexport` entry. */
export function exportTasks(
  settings: Pick<Config['export'], 'cleanupCron' | 'reexport'>,
  bodies: { cleanup(now: Date): Promise<ExportCleanupResult>; runReexport(entry: ReexportEntry, now: Date): Promise<ReexportOutcome> },
  logger: Logger,
): Task[] {
  const retention: Task = {
    name: 'export-retention',
    cron: settings.cleanupCron,
    async run(now) {
      const removed = await bodies.cleanup(now);
      if (removed.removedJobs.length || removed.removedOrphans.length) logger.info(removed, 'expired exports removed');
    },
  };
  const reexports = settings.reexport.map(
    (entry): Task => ({
      name: `reexport ${entry.domain}`,
      cron: entry.cron,
      run: async (now) => void (await bodies.runReexport(entry, now)),
    }),
  );
  return [retention, ...reexports];
}
