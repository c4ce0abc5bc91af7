import type { ActiveSite } from '../deployments/ActiveSite.js';
import type { IngestGuard } from '../../http/IngestGuard.js';
import type { RateLimiter } from '../../http/RateLimiter.js';
import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import type { FeedbackCursor, DecodedCursor } from './FeedbackCursor.js';
import type {
  DayFeedbackCounts,
  FeedbackEntry,
  FeedbackFilter,
  FeedbackStatus,
  FeedbackSubmission,
  PageFeedbackCounts,
} from './FeedbackEntry.js';
import { ingestFeedback } from './ingestFeedback.js';
import { listFeedback, type FeedbackPage } from './listFeedback.js';
import type { FeedbackLog } from './log/FeedbackLog.js';

/** What the feedback routes may do: the operations, never the log itself. */
export interface FeedbackOperations {
  /** Stores a submission for the project of the site `host` reaches, once the flood limits allow it. */
  ingest(submission: FeedbackSubmission, host: string): Promise<FeedbackEntry>;
  list(projectId: string, request: { filter: FeedbackFilter; limit: number; cursor: DecodedCursor | null }): Promise<FeedbackPage>;
  /** Per-page counts, busiest first, `limit` of them plus whether more exist. */
  countByPage(projectId: string, filter: FeedbackFilter, limit: number): { feedback: PageFeedbackCounts[]; hasMore: boolean };
  setStatus(projectId: string, id: string, status: FeedbackStatus): Promise<FeedbackEntry>;
  /** Entries per UTC day and source (the dashboard's feedback-over-time chart). */
  countByDay(projectId: string, filter: FeedbackFilter): DayFeedbackCounts[];
}

/** Builds the operations over the log, with the per-page limiter, then the global guard, in front of ingest. */
export function createFeedbackOperations(deps: {
  log: FeedbackLog;
  activeSite: ActiveSite;
  clock: Clock;
  cursors: FeedbackCursor;
  guard: IngestGuard;
  perPage: RateLimiter;
}): FeedbackOperations {
  return {
    async ingest(submission, host) {
      // Per page (of this site) as well as per address, and both before the global budget:
      // many addresses aimed at one page are one flood, and it must not use up every page's share.
      // Keyed by the site the host resolves to: made-up Host names all land on the default site.
      const site = deps.activeSite.current(host)?.domain ?? '';
      const decision = deps.perPage.consume(`${site}\n${submission.path}`);
      if (!decision.allowed) {
        throw new AppError(429, `Too many feedback posts for ${submission.path}; try again later`, {
          headers: { 'Retry-After': String(decision.resetSeconds) },
        });
      }
      await deps.guard.admit();
      return ingestFeedback(deps, submission, host);
    },
    list: (projectId, request) => listFeedback(deps, projectId, request),
    countByPage(projectId, filter, limit) {
      const pages = deps.log.countByPage(projectId, filter);
      return { feedback: pages.slice(0, limit), hasMore: pages.length > limit };
    },
    countByDay: (projectId, filter) => deps.log.countByDay(projectId, filter),
    async setStatus(projectId, id, status) {
      const entry = await deps.log.setStatus(projectId, id, status, deps.clock.now());
      if (!entry) throw AppError.notFound(`No feedback ${id} in this project`);
      return entry;
    },
  };
}
