import type { AgentJobStore } from './AgentJobStore.js';
import { DAY_MS } from '../../platform/Clock.js';

/**
 * The body of the archive cron task: completed and failed jobs untouched for `afterDays`
 * (counted from their last update, so a follow-up restarts the clock) become `archived`.
 * A plain function of `now` so tests drive it with a ManualClock. Returns how many.
 */
export function archiveStaleAgentJobs(store: AgentJobStore, now: Date, afterDays: number): Promise<number> {
  const cutoff = now.getTime() - afterDays * DAY_MS;
  const stamp = now.toISOString();
  return store.updateWhere(
    (j) => (j.status === 'completed' || j.status === 'failed') && Date.parse(j.updatedAt) <= cutoff,
    (j) => {
      j.status = 'archived';
      j.archivedAt = stamp;
      j.updatedAt = stamp;
    },
  );
}
