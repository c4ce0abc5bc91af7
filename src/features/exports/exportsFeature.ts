import { availableParallelism } from 'node:os';
import { ExportJobRepository } from './ExportJobRepository.js';
import { renderCacheDir } from './ExportPaths.js';
import { exportAndBundle } from './exportAndBundle.js';
import { exportTasks } from './exportTasks.js';
import { servedJobIds } from './servedJobIds.js';
import type { WarmUpResult } from '../../render/index.js';
import { bundleDownloadRoutes } from './routes/bundleDownloadRoutes.js';
import { staticExportRoutes } from './routes/staticExportRoutes.js';
import { createExportOperations } from './createExportOperations.js';
import { cleanupExpiredExports, type ExportCleanupResult } from './exportCleanup.js';
import { ExportQueue } from './exportQueue.js';
import { reexportSite, type BuiltBundle, type DeployBundle, type ReexportEntry, type ReexportOutcome } from './reexportSite.js';
import type { Feature, FeatureContext } from '../Feature.js';
import type { ActiveSite } from '../deployments/ActiveSite.js';

/** The static-export feature: jobs, bundles, signed links. */
export interface ExportsFeature extends Feature {
  /** Exports a site and packs its bundle (used by first start and scheduled re-exports). */
  exportAndBundle(domain: string, options?: { version?: string; ref?: string }): Promise<BuiltBundle>;
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
  /** One scheduled re-export run (a `config.export.reexport` task's body), callable directly by tests. */
  runReexport(entry: ReexportEntry, now: Date): Promise<ReexportOutcome>;
}

/** What the export feature needs from the rest of the appliance, passed in by app/. */
export interface ExportsDeps {
  /** The live sites: retention keeps the jobs that built them. */
  activeSite: ActiveSite;
  /** Activates a re-exported bundle (the deployment feature's port). */
  deploy: DeployBundle;
}

/**
 * Builds the export module: the job store (`exports.json`), the worker queue, the HTTP routes
 * and its tasks (retention, scheduled re-exports). Nothing runs until `start()`.
 */
// size: wires the feature's parts in order (stores, queue, routes, tasks); a straight list with no branching
export async function createExportsFeature(ctx: FeatureContext, deps: ExportsDeps): Promise<ExportsFeature> {
  const { config, logger, clock, sites, keyring, publicUrl } = ctx;
  const dataDir = config.dataDir;
  const jobs = await ExportJobRepository.open(dataDir);
  const queue = new ExportQueue({
    jobs,
    sites,
    clock,
    logger: logger.child({ module: 'exports' }),
    dataDir,
    concurrency: config.export.concurrency,
    timeoutMs: config.export.jobTimeoutSeconds * 1000,
    generatorVersion: ctx.version,
    cacheDir: renderCacheDir(dataDir),
    renderThreads: config.export.renderThreads === 'all' ? availableParallelism() - 1 : config.export.renderThreads,
    incrementalCacheBytes: config.export.incrementalCacheMb * 1024 * 1024,
    workerHeapMb: config.export.workerHeapMb,
    spareWorker: config.export.spareWorker,
  });
  const { linkTtlSeconds, strict: defaultStrict, shipWarnings: defaultShipWarnings } = config.export;
  const operations = createExportOperations({
    jobs,
    sites,
    clock,
    keyring,
    linkTtlSeconds,
    defaultStrict,
    defaultShipWarnings,
    publicUrl,
    dataDir,
  });

  const cleanup = (now: Date) => {
    const keep = servedJobIds(jobs, deps.activeSite);
    return cleanupExpiredExports({ jobs, dataDir, retentionDays: config.export.retentionDays, keep: (j) => keep.has(j.id) }, now);
  };
  const bundleDeps = { sites, jobs, queue, clock, defaultStrict, defaultShipWarnings, dataDir };
  const runReexport = (entry: ReexportEntry, now: Date) =>
    reexportSite(entry, { sites, jobs, reexporter: (domain) => exportAndBundle(bundleDeps, domain), deploy: deps.deploy, logger }, now);

  return {
    name: 'exports',
    jobs,
    cleanup,
    runReexport,
    tasks: exportTasks(config.export, { cleanup, runReexport }, logger),
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
    },
    async stop() {
      await queue.stop();
      await jobs.flush();
    },
    exportAndBundle: (domain, options) => exportAndBundle(bundleDeps, domain, options),
  };
}
