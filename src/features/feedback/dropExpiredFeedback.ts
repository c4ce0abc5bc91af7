import type { Logger } from 'pino';
import type { FeedbackLog } from './log/FeedbackLog.js';
import { DAY_MS } from '../../platform/Clock.js';

/**
 * Retention: deletes the monthly segments whose every entry is older than `retentionDays`
 * (0 keeps everything). Whole files go, so nothing is rewritten. Called by cron with `now`.
 */
export async function dropExpiredFeedback(deps: { log: FeedbackLog; logger: Logger; retentionDays: number }, now: Date): Promise<string[]> {
  if (deps.retentionDays <= 0) return [];
  const removed = await deps.log.dropSegmentsEndedBy(new Date(now.getTime() - deps.retentionDays * DAY_MS));
  if (removed.length > 0) deps.logger.info({ files: removed, retentionDays: deps.retentionDays }, 'dropped expired feedback segments');
  return removed;
}
