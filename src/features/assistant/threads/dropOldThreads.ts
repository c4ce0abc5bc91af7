import { DAY_MS } from '../../../platform/Clock.js';
import type { ThreadLog } from './ThreadLog.js';

/** Thread retention: drops the day files older than `retentionDays` before `now` (the cron task's body). */
export async function dropOldThreads(log: ThreadLog, retentionDays: number, now: Date): Promise<void> {
  const cutoffDay = new Date(now.getTime() - retentionDays * DAY_MS).toISOString().slice(0, 10);
  await log.dropDaysBefore(cutoffDay);
}
