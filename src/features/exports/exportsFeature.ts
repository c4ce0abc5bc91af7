import { join } from 'node:path';
import { AppError } from '../../platform/AppError.js';
import { ExportJobRepository } from './ExportJobRepository.js';
import { exportPaths, renderCacheDir } from './ExportPaths.js';
import { queueExportJob } from './queueExportJob.js';
import type { WarmUpResult } from '../../render/code/warmUpHighlighter.js';
import { bundleDownloadRoutes } from './routes/bundleDownloadRoutes.js';
import { staticExportRoutes } from './routes/staticExportRoutes.js';
import { createExportOperations } from './createExportOperations.js';
import { cleanupExpiredExports, type ExportCleanupResult } from './exportCleanup.js';
import { ExportQueue } from './exportQueue.js';
import { Scheduler } from '../../platform/Scheduler.js';
import type { Feature, FeatureContext } from '../Feature.js';
import type { ActiveSite } from '../deployments/ActiveSite.js';

/** The static-export feature: jobs, bundles, signed links. */
export interface ExportsFeature extends Feature {
  /** Exports a site and packs its bundle (used by first start and scheduled re-exports). */
  exportAndBundle(
    domain: string,
    options?: { version?: string },
  ): Promise<{ jobId: string; zipPath: string; version: string; sha256: string }>;
  /** The job store (tests and the CLI inspect it). */
  jobs: ExportJobRepository;
  /** Worker process ids by job id, for the jobs running now. */
  workerPids(): Map<string, number>;
  /** Process id of the worker waiting for the next job, if one is (config export.spareWorker). */
  sparePid(): number | null;
  /** Grammars that spare loaded and compiled ahead for the next job (the last export's languages, or before any export those of the sites' pages), once it has. */
  spareWarmed(): WarmUpResult | null;
  /** Runs the retention task once, as of `now` (the cron calls it with the clock's time). */
  cleanup(now: Date): Promise<ExportCleanupResult>;
}

/**
 * Builds the export module: the job store (`exports.json`), the worker queue, the HTTP routes
 * and the retention cron. Nothing runs until `start()`.
 */
// size: wires the feature's parts in order (stores, queue, routes, tasks); a straight list with no branching
export async function createExportsFeature(ctx: FeatureContext, deps: { activeSite: ActiveSite }): Promise<ExportsFeature> {
  const { config, logger, clock, control, keyring } = ctx;
  const dataDir = config.dataDir;
  const jobs = await ExportJobRepository.open(dataDir);
  const queue = new ExportQueue({
    jobs,
    control,
    clock,
    logger: logger.child({ module: 'exports' }),
    dataDir,
    concurrency: config.export.concurrency,
    timeoutMs: config.export.jobTimeoutSeconds * 1000,
    generatorVersion: ctx.version,
    cacheDir: renderCacheDir(dataDir),
    renderThreads: config.export.renderThreads,
    workerHeapMb: config.export.workerHeapMb,
    spareWorker: config.export.spareWorker,
  });
  const scheduler = new Scheduler(logger);
  const operations = createExportOperations({
    jobs,
    control,
    clock,
    keyring,
    linkTtlSeconds: config.export.linkTtlSeconds,
    defaultStrict: config.export.strict,
    publicUrl: ctx.publicUrl,
    dataDir,
  });

  // The bundles being served were extracted by the deployment module, but keeping the jobs that
  // produced them lets an operator fetch a live version again after the retention period.
  const servedJobs = () => {
    const kept = new Set<string>();
    for (const live of deps.activeSite.all()) {
      const job = [...jobs.list()]
        .reverse()
        .find((j) => j.status === 'completed' && j.domain === live.domain && j.version === live.version);
      if (job) kept.add(job.id);
    }
    return kept;
  };
  const cleanup = (now: Date) => {
    const keep = servedJobs();
    return cleanupExpiredExports({ jobs, dataDir, retentionDays: config.export.retentionDays, keep: (j) => keep.has(j.id) }, now);
  };

  return {
    name: 'exports',
    jobs,
    cleanup,
    workerPids: () => queue.workerPids(),
    sparePid: () => queue.sparePid(),
    spareWarmed: () => queue.spareWarmed(),
    routes: [
      ...staticExportRoutes({ exports: operations, onQueued: () => queue.kick() }),
      ...bundleDownloadRoutes({ exports: operations, keyring, clock }),
    ],
    readiness() {
      const running = jobs.list().filter((j) => j.status === 'running').length;
      const queued = jobs.list().filter((j) => j.status === 'queued').length;
      return { status: 'ok', running, queued };
    },
    async start() {
      await queue.start();
      scheduler.add('export-retention', config.export.cleanupCron, async () => {
        const removed = await cleanup(clock.now());
        if (removed.removedJobs.length || removed.removedOrphans.length) logger.info(removed, 'expired exports removed');
      });
    },
    async stop() {
      await scheduler.stop();
      await queue.stop();
      await jobs.store.flush();
    },
    async exportAndBundle(domain, options = {}) {
      const site = control.sites.find(domain);
      if (!site) throw AppError.notFound(`No site ${domain}`);
      const queued = await queueExportJob({ jobs, clock, defaultStrict: config.export.strict }, site, { version: options.version });
      queue.kick();
      const job = await queue.waitFor(queued.id);
      if (job.status !== 'completed' || !job.bundle || !job.version)
        throw new Error(`export of ${domain} failed: ${job.error ?? job.status}`);
      return {
        jobId: job.id,
        zipPath: join(exportPaths(dataDir, job.id).bundleDir, job.bundle.file),
        version: job.version,
        sha256: job.bundle.sha256,
      };
    },
  };
}
