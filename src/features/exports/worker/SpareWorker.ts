import type { WarmUpResult } from '../../../render/index.js';
import { ExportWorkerProcess } from './exportChildProcess.js';
import { SiteLanguageMemory } from './SiteLanguageMemory.js';

/** How the spare is kept. */
export interface SpareWorkerOptions {
  /** Keep a worker loaded while idle at all (config export.spareWorker). */
  enabled: boolean;
  /** V8 heap cap of the worker in MiB (config export.workerHeapMb). */
  heapMb: number;
  /** Docs folders of the sites configured now (sites can be added or edited while the appliance runs). */
  sources: () => string[];
}

/**
 * One export worker loaded ahead of the next job, so the job starts rendering at once: loading
 * the renderer takes most of a second of CPU. While it waits, the worker warms the grammars of the
 * code languages the next job will most likely meet (see SiteLanguageMemory). The queue decides
 * when a spare may run (only while idle: it would compete with running jobs for CPU).
 */
export class SpareWorker {
  private spare: ExportWorkerProcess | null = null;
  private readonly languages = new SiteLanguageMemory();

  constructor(private readonly options: SpareWorkerOptions) {}

  /** Starts a spare unless one is waiting (or spares are off). */
  keep(): void {
    if (!this.options.enabled || this.spare?.usable) return;
    const spare = new ExportWorkerProcess(this.options.heapMb);
    // The next job is an export of one of the configured sites: the grammars their pages use,
    // the last export's first, are the ones it will need; loading and compiling them otherwise
    // delays the job's first pages that use each language. Only sites not exported yet have
    // their pages read for them.
    const plan = this.languages.planFor(this.options.sources());
    spare.warmUp(plan.languages, plan.unscanned);
    // One that dies while waiting (killed, out of memory) is simply not used; the next job forks its own.
    spare.whenClosed(() => {
      if (this.spare === spare) this.spare = null;
    });
    this.spare = spare;
  }

  /** The spare for a job about to run; it is the job's now (null: the job forks its own). */
  take(): ExportWorkerProcess | null {
    const spare = this.spare;
    this.spare = null;
    return spare;
  }

  /** Remembers the languages a whole export of `source` found, for the spares after it. */
  remember(source: string, languages: string[]): void {
    this.languages.remember(source, languages);
  }

  /** Process id of the waiting spare, if there is one (operations and tests). */
  pid(): number | null {
    return this.spare?.usable ? (this.spare.child.pid ?? null) : null;
  }

  /** Grammars the waiting spare has loaded and compiled ahead (null: not done yet). */
  warmed(): WarmUpResult | null {
    return this.spare?.usable ? this.spare.warmed : null;
  }

  /** Kills the waiting spare (shutdown). */
  stop(): void {
    this.take()?.kill();
  }
}
