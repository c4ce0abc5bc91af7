import type { Clock } from '../../platform/Clock.js';
import type { ExportJobRepository } from './ExportJobRepository.js';

/** How often a running job's progress is written to disk at most. */
export const PROGRESS_PERSIST_MS = 500;

/**
 * Persists a running job's progress at most every PROGRESS_PERSIST_MS: the worker reports many
 * times a second and each store write is an fsync. The latest value always lands (a trailing
 * write), and nothing is written once `close`d, so a late update can't overwrite the final state.
 */
export class ExportProgressWriter {
  private latest: { progress: number; pageCount: number; version?: string } | null = null;
  private lastWrite = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly jobs: ExportJobRepository,
    private readonly jobId: string,
    private readonly clock: Clock,
  ) {}

  /** Records new progress; written now or at the end of the current interval. */
  report(progress: number, pageCount: number, version?: string): void {
    if (this.closed) return;
    this.latest = { progress, pageCount, version };
    const wait = this.lastWrite + PROGRESS_PERSIST_MS - Date.now();
    if (wait <= 0) void this.write();
    else this.timer ??= setTimeout(() => void this.write(), wait);
  }

  /** Stops writing (the caller writes the final state itself). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private async write(): Promise<void> {
    this.timer = undefined;
    const latest = this.latest;
    if (this.closed || !latest) return;
    this.latest = null;
    this.lastWrite = Date.now();
    await this.jobs.recordProgress(this.jobId, latest, this.clock.now()).catch(() => {
      // Progress is advisory; a failed write is retried with the next report.
    });
  }
}
