import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JsonStore } from '../../platform/store/JsonStore.js';
import type { BundleRecord, ExportJobRecord, ExportsData, ReexportRecord } from './ExportJobRecord.js';
import type { ExportTaskResult } from './worker/exportWorkerProtocol.js';

/** Current schema version of exports.json. */
export const EXPORTS_SCHEMA_VERSION = 3;

/** A running job's latest progress report. */
export interface ExportProgressReport {
  progress: number;
  pageCount: number;
  version?: string;
}

/**
 * Export jobs in `<dataDir>/exports.json`, written durably through one JsonStore. The record
 * owns the job's state: every transition (queued → running → completed | failed, or back to
 * queued) is a method here, so the queue and the recovery task say what happened, not how the
 * record changes.
 */
export class ExportJobRepository {
  private constructor(private readonly store: JsonStore<ExportsData>) {}

  /** Opens (or creates) exports.json in `dataDir`; a damaged file stops startup. */
  static async open(dataDir: string): Promise<ExportJobRepository> {
    const store = await JsonStore.open<ExportsData>({
      path: join(dataDir, 'exports.json'),
      schemaVersion: EXPORTS_SCHEMA_VERSION,
      defaults: () => ({ schemaVersion: EXPORTS_SCHEMA_VERSION, jobs: [], reexports: {} }),
      migrations: {
        // Version 1 kept only counts of warnings and failed pages; the lists were never recorded.
        1: (data) => void (data.jobs as Record<string, unknown>[]).forEach(listsFromCounts),
        2: (data) => void (data.reexports = reexportsKeptByDeployments(dataDir)),
      },
    });
    return new ExportJobRepository(store);
  }

  /** The job with `id`, or undefined. */
  find(id: string): ExportJobRecord | undefined {
    return this.store.data.jobs.find((j) => j.id === id);
  }

  /** Every job, oldest first. */
  list(): readonly ExportJobRecord[] {
    return this.store.data.jobs;
  }

  /** The queued or running job for `domain`, if any (at most one exists). */
  activeForDomain(domain: string): ExportJobRecord | undefined {
    return this.store.data.jobs.find((j) => j.domain === domain && (j.status === 'queued' || j.status === 'running'));
  }

  /** The oldest queued job not in `exclude`. */
  nextQueued(exclude: ReadonlySet<string>): ExportJobRecord | undefined {
    return this.store.data.jobs.find((j) => j.status === 'queued' && !exclude.has(j.id));
  }

  /**
   * Inserts `job` unless its domain already has a queued or running job, which is returned
   * instead. Check and insert happen in one synchronous step, so two concurrent requests for
   * the same domain can't both get in.
   */
  async insertUnlessBusy(job: ExportJobRecord): Promise<ExportJobRecord | undefined> {
    let busy: ExportJobRecord | undefined;
    await this.store.update((d) => {
      busy = this.activeForDomain(job.domain);
      if (!busy) d.jobs.push(job);
    });
    return busy;
  }

  /** A worker took the job: it runs from the start (progress and error of an earlier run cleared). */
  markRunning(id: string, now: Date): Promise<ExportJobRecord | undefined> {
    return this.change(id, (j) => {
      j.status = 'running';
      j.startedAt = now.toISOString();
      j.updatedAt = j.startedAt;
      j.progress = 0;
      j.pageCount = 0;
      j.error = null;
    });
  }

  /** Remembers the pid of the job's worker, so a restart can stop one a crash orphaned. */
  recordWorker(id: string, pid: number): Promise<ExportJobRecord | undefined> {
    return this.change(id, (j) => void (j.workerPid = pid));
  }

  /** A running job's progress; ignored once the job is no longer running (a late report). */
  recordProgress(id: string, report: ExportProgressReport, now: Date): Promise<ExportJobRecord | undefined> {
    return this.change(id, (j) => {
      if (j.status !== 'running') return;
      j.progress = report.progress;
      j.pageCount = report.pageCount;
      if (report.version) j.version = report.version;
      j.updatedAt = now.toISOString();
    });
  }

  /** The worker delivered the bundle: the job is completed with what the run produced. */
  complete(id: string, result: ExportTaskResult, now: Date): Promise<ExportJobRecord | undefined> {
    return this.change(id, (j) => {
      j.status = 'completed';
      j.progress = 100;
      // Pages in the bundle: a page that failed still gets its error page (and a report entry),
      // and counting it keeps pageCount from shrinking between the last progress report and now.
      j.pageCount = result.pageCount + result.failedPages.length;
      j.expectedPages = result.expected;
      j.failedPages = result.failedPages;
      j.warnings = result.warnings;
      j.warningCount = result.warningCount;
      j.warningGroups = result.warningGroups;
      j.version = result.version;
      j.reusedPages = result.reusedPages;
      j.renderedPages = result.renderedPages;
      j.bundle = { file: result.file, sizeBytes: result.sizeBytes, sha256: result.sha256 };
      j.stats = { renderMs: result.renderMs, packMs: result.packMs, peakRssBytes: result.peakRssBytes };
      j.finishedAt = now.toISOString();
      j.updatedAt = j.finishedAt;
    });
  }

  /** The job's bundle was also packed as `.tar.gz` (a completed job's only later change). */
  recordTarGz(id: string, tarGz: NonNullable<BundleRecord['tarGz']>): Promise<ExportJobRecord | undefined> {
    return this.change(id, (j) => {
      if (j.bundle) j.bundle.tarGz = tarGz;
    });
  }

  /** The run was cut short by a shutdown, not a failure: the job waits in the queue for the next start. */
  requeue(id: string, now: Date): Promise<ExportJobRecord | undefined> {
    return this.change(id, (j) => {
      j.status = 'queued';
      j.progress = 0;
      j.pageCount = 0;
      j.startedAt = null;
      j.updatedAt = now.toISOString();
    });
  }

  /** The run failed with `message` (shown to clients). */
  fail(id: string, message: string, now: Date): Promise<ExportJobRecord | undefined> {
    return this.change(id, (j) => {
      j.status = 'failed';
      j.error = message;
      j.finishedAt = now.toISOString();
      j.updatedAt = j.finishedAt;
    });
  }

  /**
   * Every job a crash left `running`, in one write: counted as interrupted and queued again, or
   * failed with `message` once interrupted `maxInterruptions` times (see recoverInterruptedJobs).
   */
  async recoverInterrupted(now: Date, maxInterruptions: number, message: string): Promise<{ resumed: string[]; failed: string[] }> {
    const resumed: string[] = [];
    const failed: string[] = [];
    const at = now.toISOString();
    await this.store.update((d) => {
      for (const job of d.jobs) {
        if (job.status !== 'running') continue;
        job.workerPid = null;
        job.interruptions += 1;
        job.updatedAt = at;
        job.progress = 0;
        job.pageCount = 0;
        if (job.interruptions >= maxInterruptions) {
          job.status = 'failed';
          job.error = message;
          job.finishedAt = at;
          failed.push(job.id);
        } else {
          job.status = 'queued';
          job.startedAt = null;
          resumed.push(job.id);
        }
      }
    });
    return { resumed, failed };
  }

  /** Removes jobs durably. */
  async remove(ids: ReadonlySet<string>): Promise<void> {
    if (ids.size === 0) return;
    await this.store.update((d) => {
      d.jobs = d.jobs.filter((j) => !ids.has(j.id));
    });
  }

  /** What the last scheduled re-export of `domain` built, if any. */
  lastReexport(domain: string): ReexportRecord | undefined {
    return this.store.data.reexports[domain];
  }

  /** Remembers a re-export of `domain` durably, so an unchanged source is not exported again. */
  async recordReexport(domain: string, built: ReexportRecord): Promise<void> {
    await this.store.update((d) => {
      d.reexports[domain] = built;
    });
  }

  /** Writes pending changes to disk (shutdown). */
  flush(): Promise<void> {
    return this.store.flush();
  }

  private change(id: string, apply: (job: ExportJobRecord) => void): Promise<ExportJobRecord | undefined> {
    return this.store.update((d) => {
      const job = d.jobs.find((j) => j.id === id);
      if (job) apply(job);
      return job;
    });
  }
}

/** Version 1 → 2: counts become empty lists, the warning count is kept as `warningCount`. */
function listsFromCounts(job: Record<string, unknown>): void {
  job.warningCount = typeof job.warnings === 'number' ? job.warnings : 0;
  job.warnings = [];
  if (!Array.isArray(job.failedPages)) job.failedPages = [];
}

/**
 * Version 2 → 3: scheduled re-exports moved from the deployment feature to this one. Their
 * memory (which source each domain's last re-export was built from) used to live in the
 * default site's `deployments.json`; carried over once here, so an upgrade doesn't export
 * every unchanged site again. Anything unreadable means no memory, as on a first start.
 */
function reexportsKeptByDeployments(dataDir: string): Record<string, ReexportRecord> {
  try {
    const kept = (JSON.parse(readFileSync(join(dataDir, 'deployments.json'), 'utf8')) as { reexports?: unknown }).reexports;
    return kept && typeof kept === 'object' && !Array.isArray(kept) ? (kept as Record<string, ReexportRecord>) : {};
  } catch {
    return {};
  }
}
