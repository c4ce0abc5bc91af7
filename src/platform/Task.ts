/**
 * One piece of background work on a schedule: retention, archiving, re-export. `run` is a plain
 * function of `now`, so tests call it with a manual clock instead of waiting for cron; the
 * scheduler only triggers it (see Scheduler).
 */
export interface Task {
  /** A name for logs (`export-retention`, `reexport docs.example.com`). */
  name: string;
  /** When it runs, as a node-cron expression (five or six fields). */
  cron: string;
  /** Does one run as of `now`; a failure is logged by the scheduler and the next run goes ahead. */
  run(now: Date): Promise<void>;
}
