import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import type { Clock } from './Clock.js';
import type { Task } from './Task.js';

/**
 * The appliance's one cron. It only triggers: each task's body is its own `run(now)` (see
 * Task), called with the injected clock's time, so every schedule reads alike and tests run the
 * bodies directly without waiting for wall time.
 */
export class Scheduler {
  private readonly scheduled: ScheduledTask[] = [];

  constructor(
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {}

  /** True when `expression` is a cron expression node-cron accepts. */
  static isValid(expression: string): boolean {
    return cron.validate(expression);
  }

  /** Schedules `task`; a run never overlaps the previous one, and failures are logged. */
  add(task: Task): void {
    if (!cron.validate(task.cron)) throw new Error(`Invalid cron expression for ${task.name}: ${task.cron}`);
    const scheduled = cron.schedule(
      task.cron,
      async () => {
        try {
          await task.run(this.clock.now());
        } catch (err) {
          this.logger.error({ err, task: task.name }, 'scheduled task failed');
        }
      },
      { name: task.name, noOverlap: true },
    );
    this.scheduled.push(scheduled);
  }

  /** Stops every task (SIGTERM). */
  async stop(): Promise<void> {
    for (const task of this.scheduled.splice(0)) await task.stop();
  }
}
