import { z } from 'zod';
import { AppError } from '../../../platform/AppError.js';
import type { Clock } from '../../../platform/Clock.js';
import { FEEDBACK_STATUSES } from '../FeedbackEntry.js';
import type { FeedbackCursor } from '../FeedbackCursor.js';
import { listFeedback } from '../listFeedback.js';
import type { FeedbackFilter, FeedbackLog } from '../log/FeedbackLog.js';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import type { RateLimiter } from '../../../http/RateLimiter.js';
import { feedbackFilterQuerySchema, feedbackListQuerySchema } from './feedbackQuerySchema.js';
import { feedbackEntrySchema, feedbackPageSchema, presentFeedback } from './presentFeedback.js';

/** What the analytics routes need; `limiter` is one budget shared by all of them. */
export interface AnalyticsRouteDeps {
  log: FeedbackLog;
  cursors: FeedbackCursor;
  clock: Clock;
  limiter: RateLimiter;
}

const projectParams = z.object({ projectId: z.string() });
const errors = {
  400: { description: 'Invalid parameters (every problem listed)' },
  401: { description: 'Missing or invalid admin key' },
  403: { description: 'Key of another project, or read-only key on a write' },
  429: { description: 'Analytics budget of this project spent (Retry-After)' },
};

function toFilter(q: { dateFrom?: number; dateTo?: number; source?: FeedbackFilter['source']; status?: FeedbackFilter['statuses'] }): FeedbackFilter {
  return { fromMs: q.dateFrom, toMs: q.dateTo, source: q.source, statuses: q.status };
}

/** `/v1/analytics/:projectId/feedback` listing, per-page counts and status changes. */
export function analyticsRoutes(deps: AnalyticsRouteDeps): RouteSpec[] {
  const rateLimit = { limiter: deps.limiter };
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/analytics/:projectId/feedback',
      summary: 'List feedback newest first, filtered, with keyset paging',
      tag: 'analytics',
      auth: 'admin',
      params: projectParams,
      query: feedbackListQuerySchema(deps.cursors),
      rateLimit,
      responses: {
        200: { description: 'One page', schema: feedbackPageSchema },
        ...errors,
      },
      async handler(ctx, { params, query }) {
        const page = await listFeedback(deps, params.projectId, { filter: toFilter(query), limit: query.limit ?? 50, cursor: query.cursor ?? null });
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { feedback: page.feedback.map(presentFeedback), nextCursor: page.nextCursor, hasMore: page.hasMore };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/analytics/:projectId/feedback/by-page',
      summary: 'Feedback counts per page (helpful, not helpful, code snippets)',
      tag: 'analytics',
      auth: 'admin',
      params: projectParams,
      query: feedbackFilterQuerySchema,
      rateLimit,
      responses: {
        200: {
          description: 'Counts per page, busiest first',
          schema: z.object({ pages: z.array(z.object({ path: z.string(), helpful: z.number(), notHelpful: z.number(), code: z.number(), total: z.number() })) }),
        },
        ...errors,
      },
      handler(ctx, { params, query }) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { pages: deps.log.countByPage(params.projectId, toFilter(query)) };
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/v1/analytics/:projectId/feedback/:id',
      summary: 'Set the triage status of one entry',
      tag: 'analytics',
      auth: 'admin',
      params: z.object({ projectId: z.string(), id: z.string() }),
      body: z.strictObject({ status: z.enum(FEEDBACK_STATUSES) }),
      rateLimit,
      responses: { 200: { description: 'The updated entry', schema: feedbackEntrySchema }, ...errors, 404: { description: 'No such entry in this project' } },
      async handler(ctx, { params, body }) {
        const entry = await deps.log.setStatus(params.projectId, params.id, body.status, deps.clock.now());
        if (!entry) throw AppError.notFound(`No feedback ${params.id} in this project`);
        ctx.body = presentFeedback(entry);
      },
    }),
  ];
}
