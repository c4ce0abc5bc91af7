import { join } from 'node:path';
import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import type { ExportJobRepository } from './ExportJobRepository.js';
import { exportPaths } from './ExportPaths.js';
import type { ExportQueue } from './exportQueue.js';
import { queueExportJob } from './queueExportJob.js';
import type { BuiltBundle } from './reexportSite.js';

/**
 * Exports `domain`'s site through the queue like any job and waits for its bundle (first start's
 * sample site, scheduled re-exports); rejects with the reason when the export fails.
 */
export async function exportAndBundle(
  deps: {
    sites: SiteDirectory;
    jobs: ExportJobRepository;
    queue: Pick<ExportQueue, 'kick' | 'waitFor'>;
    clock: Clock;
    defaultStrict: boolean;
    defaultShipWarnings: boolean;
    dataDir: string;
  },
  domain: string,
  options: { version?: string; ref?: string } = {},
): Promise<BuiltBundle> {
  const site = deps.sites.find(domain);
  if (!site) throw AppError.notFound(`No site ${domain}`);
  const { job: queued, queued: isNew } = await queueExportJob(deps, site, { version: options.version, ref: options.ref });
  // A job already under way may have started from an older source or another commit (a git
  // update asks for one): wait for a turn instead of taking its result.
  if (!isNew) throw AppError.conflict(`An export of ${domain} is already ${queued.status}`, { jobId: queued.id });
  deps.queue.kick();
  const job = await deps.queue.waitFor(queued.id);
  if (job.status !== 'completed' || !job.bundle || !job.version) throw new Error(`export of ${domain} failed: ${job.error ?? job.status}`);
  return {
    jobId: job.id,
    zipPath: join(exportPaths(deps.dataDir, job.id).bundleDir, job.bundle.file),
    version: job.version,
    sha256: job.bundle.sha256,
    failedPages: job.failedPages.length,
  };
}
