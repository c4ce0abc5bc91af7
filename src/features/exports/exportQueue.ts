import { randomBytes } from 'node:crypto';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Clock } from '../../platform/Clock.js';
import type { ExportJobRecord } from './ExportJobRecord.js';
import type { ExportJobRepository } from './ExportJobRepository.js';
import { exportPaths, siteCacheDir } from './ExportPaths.js';
import { recoverInterruptedJobs } from './recoverInterruptedJobs.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import { ExportRunError, runExportInChild, type ExportProgress } from './worker/exportChildProcess.js';
import { ExportProgressWriter } from './exportProgressWriter.js';
import type { ExportTaskInput } from './worker/exportWorkerProtocol.js';
import type { WarmUpResult } from '../../render/index.js';
import { SpareWorker } from './worker/SpareWorker.js';

/** What the queue needs. */
export interface ExportQueueDeps {
  jobs: ExportJobRepository;
  sites: SiteDirectory;
  clock: Clock;
  logger: Logger;
  dataDir: string;
  concurrency: number;
  timeoutMs: number;
  generatorVersion: string;
  cacheDir: string | null;
  /** Bound of each site's incremental cache in bytes; 0 turns incremental export off (config export.incrementalCacheMb). */
  incrementalCacheBytes: number;
  renderThreads: number;
  workerHeapMb: number;
  /** Keep a worker process loaded while idle, so the next job starts at once (config export.spareWorker). */
  spareWorker: boolean;
}

/** Pause after the store refused a job's state change. */
const BOOKKEEPING_RETRY_MS = 5000;

/** Share of the progress bar given to rendering; packing the zip fills the rest up to 99. */
const RENDER_SHARE = 90;

/**
 * Runs queued export jobs, oldest first, `concurrency` at a time, each in its own worker
 * process. The job record owns the state: every transition is written to exports.json before
 * anyone is told about it, so a restart finds each job where it really was.
 */
export class ExportQueue {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void>; pid?: number }>();
  private readonly waiters = new Map<string, ((job: ExportJobRecord) => void)[]>();
  private accepting = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  /** A loaded worker waiting for the next job (only while no job runs). */
  private readonly spare: SpareWorker;

  constructor(private readonly deps: ExportQueueDeps) {
    const { spareWorker: enabled, workerHeapMb: heapMb, sites } = deps;
    this.spare = new SpareWorker({ enabled, heapMb, sources: () => sites.list().map((site) => site.source) });
  }

  /** Recovers jobs a crash left running (see recoverInterruptedJobs), then starts taking jobs. */
  async start(): Promise<void> {
    const recovered = await recoverInterruptedJobs(this.deps.jobs, this.deps.clock);
    if (recovered.resumed.length || recovered.failed.length) this.deps.logger.warn(recovered, 'export jobs interrupted by a restart');
    this.accepting = true;
    this.kick();
  }

  /** Starts queued jobs while there is capacity. */
  kick(): void {
    if (this.retryTimer) return;
    while (this.accepting && this.running.size < this.deps.concurrency) {
      const job = this.deps.jobs.nextQueued(new Set(this.running.keys()));
      if (!job) break;
      const abort = new AbortController();
      const done = this.run(job.id, abort.signal)
        .catch((err: unknown) => {
          // The store refused a write (disk full, read-only…): the job stays queued. Wait
          // before trying again instead of spinning on a disk that keeps failing.
          this.deps.logger.error({ err, jobId: job.id }, 'export job bookkeeping failed; retrying later');
          this.retryTimer = setTimeout(() => {
            this.retryTimer = undefined;
            this.kick();
          }, BOOKKEEPING_RETRY_MS);
          this.retryTimer.unref();
        })
        .finally(() => {
          this.running.delete(job.id);
          this.kick();
        });
      this.running.set(job.id, { abort, done });
    }
    this.keepSpare();
  }

  /**
   * Starts a spare worker when the queue has gone idle (see SpareWorker). Not while jobs run: the
   * spare would compete with them for CPU, and a job that ends makes the queue idle again.
   */
  private keepSpare(): void {
    if (this.accepting && this.running.size === 0) this.spare.keep();
  }

  /** Process ids of the worker processes running now, by job id (operations and tests). */
  workerPids(): Map<string, number> {
    const pids = new Map<string, number>();
    for (const [jobId, run] of this.running) if (run.pid) pids.set(jobId, run.pid);
    return pids;
  }

  /** Process id of the spare worker, if one is waiting (operations and tests). */
  sparePid(): number | null {
    return this.spare.pid();
  }

  /** Grammars the waiting spare has loaded and compiled ahead (null: not done yet). */
  spareWarmed(): WarmUpResult | null {
    return this.spare.warmed();
  }

  /** Resolves with the job once it is completed or failed. */
  waitFor(jobId: string): Promise<ExportJobRecord> {
    const job = this.deps.jobs.find(jobId);
    if (job && (job.status === 'completed' || job.status === 'failed')) return Promise.resolve(job);
    return new Promise((resolve) => this.waiters.set(jobId, [...(this.waiters.get(jobId) ?? []), resolve]));
  }

  /**
   * SIGTERM: take no new jobs, stop the running workers (asked first, killed after a short
   * grace) and put their jobs back in the queue, so the next start resumes them. Bounded by
   * the worker's abort grace.
   */
  async stop(): Promise<void> {
    this.accepting = false;
    this.stopping = true;
    clearTimeout(this.retryTimer);
    const runs = [...this.running.values()];
    for (const run of runs) run.abort.abort();
    this.spare.stop();
    await Promise.allSettled(runs.map((r) => r.done));
  }

  // size: one job's whole run in order (running, worker, progress, then complete, requeue or fail);
  // every state change is one ExportJobRepository transition, the rest is the worker's lifecycle
  private async run(jobId: string, signal: AbortSignal): Promise<void> {
    const { jobs, clock, logger, dataDir } = this.deps;
    const job = await jobs.markRunning(jobId, clock.now());
    if (!job) return;
    const base = exportPaths(dataDir, job.id);
    // Each run has a scratch folder of its own, so anything still writing into an earlier run's
    // (a worker orphaned by a crash, for a moment) can't make this one fail.
    const paths = { ...base, runDir: join(base.workDir, `run-${randomBytes(4).toString('hex')}`) };
    const progress = new ExportProgressWriter(jobs, job.id, clock);
    try {
      // A resumed job starts over: no scratch checkout or half-written zip of an earlier run is kept.
      const clear = (dir: string) =>
        rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch((err: Error) =>
          logger.warn({ jobId, dir, err: err.message }, 'could not clear an earlier run of this job'),
        );
      await Promise.all([clear(paths.workDir), clear(paths.bundleDir)]);
      const site = this.deps.sites.find(job.domain);
      if (!site) throw new ExportRunError(`site ${job.domain} is no longer configured`);
      if (
        !(await stat(site.source).then(
          (s) => s.isDirectory(),
          () => false,
        ))
      )
        throw new ExportRunError(`docs source directory not found: ${site.source}`);
      const input: ExportTaskInput = {
        sourceDir: site.source,
        ref: job.ref ?? site.ref,
        ...paths,
        now: job.createdAt,
        ...(job.full ? {} : { previousBundle: this.previousBundle(job.domain) }),
        render: {
          domain: job.domain,
          jobId: job.id,
          version: job.requestedVersion ?? undefined,
          paths: job.paths ?? undefined,
          strict: job.strict,
          keepRemoteAssets: job.keepRemoteAssets ?? false,
          allowAuthorScripts: site.authorScripts ?? false,
          shipWarnings: job.shipWarnings ?? false,
          ...(job.audience ? { audience: job.audience === 'public' ? null : { groups: job.audience } } : {}),
          generatorVersion: this.deps.generatorVersion,
          cacheDir: this.deps.cacheDir ?? undefined,
          threads: this.deps.renderThreads,
          ...(this.deps.incrementalCacheBytes > 0
            ? {
                incremental: {
                  dir: siteCacheDir(this.deps.dataDir, job.domain),
                  maxBytes: this.deps.incrementalCacheBytes,
                  ...(job.full ? { full: true } : {}),
                },
              }
            : {}),
        },
      };
      const result = await runExportInChild(input, {
        worker: this.spare.take(),
        timeoutMs: this.deps.timeoutMs,
        heapMb: this.deps.workerHeapMb,
        signal,
        abortGraceMs: 1000,
        onProgress: (p) => progress.report(...progressOf(p)),
        onSpawn: (pid) => {
          const run = this.running.get(jobId);
          if (run) run.pid = pid;
          void jobs.recordWorker(job.id, pid).catch(() => {});
        },
      });
      progress.close();
      // A subset export (`paths`) may not meet all of the site's languages.
      if (!job.paths) {
        this.spare.remember(site.source, result.languages);
      }
      const finished = await jobs.complete(job.id, result, clock.now());
      logger.info(
        {
          jobId: job.id,
          domain: job.domain,
          pages: result.pageCount,
          failed: result.failedPages.length,
          warnings: result.warningCount,
          sizeBytes: result.sizeBytes,
          peakRssBytes: result.peakRssBytes,
          reusedPages: result.reusedPages,
          renderedPages: result.renderedPages,
          reusedZipEntries: result.reusedZipEntries,
        },
        'export completed',
      );
      if (result.cacheDiscarded)
        logger.info(
          { jobId: job.id, domain: job.domain, reason: result.cacheDiscarded },
          'incremental cache thrown away: every page rendered afresh',
        );
      if (result.cacheFull)
        logger.warn({ jobId: job.id, domain: job.domain }, 'incremental cache reached export.incrementalCacheMb: some pages were not kept');
      this.notify(finished);
    } catch (err) {
      progress.close();
      await rm(paths.workDir, { recursive: true, force: true }).catch(() => {});
      await rm(paths.bundleDir, { recursive: true, force: true }).catch(() => {});
      if (this.stopping) {
        // Shutdown, not a failure: the next start runs the job again.
        await jobs.requeue(job.id, clock.now());
        logger.info({ jobId: job.id }, 'export interrupted by shutdown; it resumes on next start');
        return;
      }
      const message = err instanceof ExportRunError ? err.message : 'export failed';
      logger.warn(
        { jobId: job.id, domain: job.domain, error: message, detail: err instanceof ExportRunError ? err.detail : String(err) },
        'export failed',
      );
      const failed = await jobs.fail(job.id, message, clock.now());
      this.notify(failed);
    }
  }

  /** The zip of `domain`'s newest completed whole-site export, if it has one (it may be gone by the time it is read). */
  private previousBundle(domain: string): string | undefined {
    const jobs = this.deps.jobs.list();
    for (let i = jobs.length - 1; i >= 0; i--) {
      const j = jobs[i];
      if (j.domain === domain && j.status === 'completed' && j.bundle && !j.paths)
        return join(exportPaths(this.deps.dataDir, j.id).bundleDir, j.bundle.file);
    }
    return undefined;
  }

  private notify(job: ExportJobRecord | undefined): void {
    if (!job) return;
    const waiting = this.waiters.get(job.id) ?? [];
    this.waiters.delete(job.id);
    for (const resolve of waiting) resolve(job);
  }
}

/** Maps a worker report to the job's `progress` (0–99 while running) and `pageCount`. */
function progressOf(p: ExportProgress): [number, number, string?] {
  if (p.type === 'rendering') return [p.total > 0 ? Math.floor((p.rendered / p.total) * RENDER_SHARE) : 0, p.rendered];
  return [RENDER_SHARE + Math.floor((p.done / Math.max(1, p.total)) * (99 - RENDER_SHARE)), p.pageCount, p.version];
}
