import { join } from 'node:path';
import { JsonStore } from '../../platform/store/JsonStore.js';
import type { ExportJobRecord, ExportsData } from './ExportJobRecord.js';

/** Current schema version of exports.json. */
export const EXPORTS_SCHEMA_VERSION = 2;

/** Export jobs in `<dataDir>/exports.json`, written durably through one JsonStore. */
export class ExportJobRepository {
  private constructor(readonly store: JsonStore<ExportsData>) {}

  /** Opens (or creates) exports.json in `dataDir`; a damaged file stops startup. */
  static async open(dataDir: string): Promise<ExportJobRepository> {
    const store = await JsonStore.open<ExportsData>({
      path: join(dataDir, 'exports.json'),
      schemaVersion: EXPORTS_SCHEMA_VERSION,
      defaults: () => ({ schemaVersion: EXPORTS_SCHEMA_VERSION, jobs: [] }),
      // Version 1 kept only counts of warnings and failed pages; the lists were never recorded.
      migrations: { 1: (data) => void (data.jobs as Record<string, unknown>[]).forEach(listsFromCounts) },
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

  /** Applies `change` to the job durably; undefined when there is no such job. */
  async update(id: string, change: (job: ExportJobRecord) => void): Promise<ExportJobRecord | undefined> {
    return this.store.update((d) => {
      const job = d.jobs.find((j) => j.id === id);
      if (job) change(job);
      return job;
    });
  }

  /** Removes jobs durably. */
  async remove(ids: ReadonlySet<string>): Promise<void> {
    if (ids.size === 0) return;
    await this.store.update((d) => {
      d.jobs = d.jobs.filter((j) => !ids.has(j.id));
    });
  }
}

/** Version 1 → 2: counts become empty lists, the warning count is kept as `warningCount`. */
function listsFromCounts(job: Record<string, unknown>): void {
  job.warningCount = typeof job.warnings === 'number' ? job.warnings : 0;
  job.warnings = [];
  if (!Array.isArray(job.failedPages)) job.failedPages = [];
}
