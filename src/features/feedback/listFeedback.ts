import type { FeedbackLog } from './log/FeedbackLog.js';
import { AppError } from '../../platform/AppError.js';
import type { FeedbackEntry, FeedbackFilter } from './FeedbackEntry.js';
import { hashFeedbackFilter, type DecodedCursor, type FeedbackCursor } from './FeedbackCursor.js';

/** One page of the analytics listing. */
export interface FeedbackPage {
  feedback: FeedbackEntry[];
  nextCursor: string | null;
  hasMore: boolean;
}

/**
 * Lists a project's feedback newest first with keyset paging: the cursor names the last
 * `(createdAt, id)` seen, so entries added meanwhile can't shift the next page. A cursor made
 * for other filters (or another project) is refused rather than silently reinterpreted.
 */
export async function listFeedback(
  deps: { log: FeedbackLog; cursors: FeedbackCursor },
  projectId: string,
  request: { filter: FeedbackFilter; limit: number; cursor: DecodedCursor | null },
): Promise<FeedbackPage> {
  const filterHash = hashFeedbackFilter(projectId, request.filter);
  if (request.cursor && request.cursor.filterHash !== filterHash) {
    throw AppError.invalid([
      { message: 'query.cursor: this cursor was made for other filters; repeat the first request with these filters instead' },
    ]);
  }
  const { entries, hasMore } = await deps.log.list(projectId, request.filter, request.cursor, request.limit);
  const last = entries.at(-1);
  const nextCursor = hasMore && last ? deps.cursors.encode({ createdAtMs: Date.parse(last.createdAt), id: last.id }, filterHash) : null;
  return { feedback: entries, nextCursor, hasMore };
}
