import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';

/**
 * Cron for the appliance. Scheduled functions only enqueue or do small bookkeeping; real work
 * runs in the job workers. Each task's body is a plain function so tests call it directly
 * with an injected clock instead of waiting for wall time.
 */
export class Scheduler {
  private readonly tasks: ScheduledTask[] = [];

  constructor(private readonly logger: Logger) {}

  /** True when `expression` is a cron expression node-cron accepts. */
  static isValid(expression: string): boolean {
    return cron.validate(expression);
  }

  /** Runs `task` on `expression`; a run never overlaps the previous one, and failures are logged. */
  add(name: string, expression: string, task: () => Promise<void> | void): void {
    if (!cron.validate(expression)) throw new Error(`Invalid cron expression for ${name}: ${expression}`);
    const scheduled = cron.schedule(
      expression,
      async () => {
        try {
          await task();
        } catch (err) {
          this.logger.error({ err, task: name }, 'scheduled task failed');
        }
      },
      { name, noOverlap: true },
    );
    this.tasks.push(scheduled);
  }

  /** Stops every task (SIGTERM). */
  async stop(): Promise<void> {
    for (const task of this.tasks.splice(0)) await task.stop();
  }
}
