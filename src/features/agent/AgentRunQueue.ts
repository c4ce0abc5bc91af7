import type { Logger } from 'pino';
import type { AgentRunScheduler, AgentRunTask } from './AgentRuntime.js';

/** Runs one task; must settle (the queue logs a rejection and moves on). */
export type AgentRunExecutor = (task: AgentRunTask, signal: AbortSignal) => Promise<void>;

/**
 * The agent run queue: at most `concurrency` runs at once, first come first served, in
 * memory, and never two runs of one job at once (a follow-up message sent while the job runs
 * waits for that run: two runs on one branch would race each other's pushes). Waiting tasks
 * don't survive a restart; their jobs are failed as interrupted on boot, the same as running ones.
 */
export class AgentRunQueue implements AgentRunScheduler {
  private readonly waiting: AgentRunTask[] = [];
  private readonly running = new Set<{ jobId: string; controller: AbortController; done: Promise<void> }>();
  private stopped = false;

  constructor(
    private readonly concurrency: number,
    private readonly execute: AgentRunExecutor,
    private readonly logger: Logger,
  ) {}

  /** Adds a run; it starts as soon as a slot is free. */
  enqueue(task: AgentRunTask): void {
    if (this.stopped) throw new Error('agent queue is stopped');
    this.waiting.push(task);
    this.pump();
  }

  /** Whether a run of this job is waiting for its turn (a follow-up message). */
  hasWaiting(jobId: string): boolean {
    return this.waiting.some((t) => t.jobId === jobId);
  }

  /** How many runs are executing and waiting. */
  get size(): { running: number; waiting: number } {
    return { running: this.running.size, waiting: this.waiting.length };
  }

  /**
   * Stops taking work, drops waiting tasks and aborts running ones, waiting up to `timeoutMs`
   * for them to record their end. Returns the ids of jobs dropped or still running.
   */
  async stop(timeoutMs: number): Promise<string[]> {
    this.stopped = true;
    const dropped = this.waiting.splice(0).map((t) => t.jobId);
    const runs = [...this.running];
    for (const run of runs) run.controller.abort();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.allSettled(runs.map((run) => run.done)), deadline]);
    clearTimeout(timer);
    return [...dropped, ...[...this.running].map((run) => run.jobId)];
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.concurrency) {
      const busy = new Set([...this.running].map((run) => run.jobId));
      const next = this.waiting.findIndex((t) => !busy.has(t.jobId));
      if (next < 0) return;
      const task = this.waiting.splice(next, 1)[0]!;
      const controller = new AbortController();
      const run = { jobId: task.jobId, controller, done: Promise.resolve() };
      run.done = this.execute(task, controller.signal)
        .catch((err) => this.logger.error({ err, jobId: task.jobId }, 'agent run crashed'))
        .finally(() => {
          this.running.delete(run);
          this.pump();
        });
      this.running.add(run);
    }
  }
}
