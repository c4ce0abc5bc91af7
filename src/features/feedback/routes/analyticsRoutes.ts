import { z } from 'zod';
import { FEEDBACK_SOURCES, FEEDBACK_STATUSES, type FeedbackFilter } from '../FeedbackEntry.js';
import type { FeedbackCursor } from '../FeedbackCursor.js';
import type { FeedbackOperations } from '../FeedbackOperations.js';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import type { RateLimiter } from '../../../http/RateLimiter.js';
import { feedbackByPageQuerySchema, feedbackFilterQuerySchema, feedbackListQuerySchema } from './feedbackQuerySchema.js';
import { feedbackEntrySchema, feedbackPageSchema, presentFeedback } from './presentFeedback.js';

/** What the analytics routes need; `limiter` is one budget shared by all of them. */
export interface AnalyticsRouteDeps {
  ops: FeedbackOperations;
  cursors: FeedbackCursor;
  limiter: RateLimiter;
}

const projectParams = z.object({ projectId: z.string() });
const errors = {
  400: { description: 'Invalid parameters (every problem listed)' },
  401: { description: 'Missing or invalid admin key' },
  403: { description: 'Key of another project, or read-only key on a write' },
  429: { description: 'Analytics budget of this project spent (Retry-After)' },
};

function toFilter(q: {
  dateFrom?: number;
  dateTo?: number;
  source?: FeedbackFilter['source'];
  status?: FeedbackFilter['statuses'];
  domain?: string;
}): FeedbackFilter {
  return { fromMs: q.dateFrom, toMs: q.dateTo, source: q.source, statuses: q.status, domain: q.domain };
}

/** `/v1/analytics/:projectId/feedback` listing, per-page counts and status changes. */
// size: a list of route declarations (method, path, schemas for /openapi.json, a short handler each), read as a table
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
        const page = await deps.ops.list(params.projectId, {
          filter: toFilter(query),
          limit: query.limit ?? 50,
          cursor: query.cursor ?? null,
        });
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { feedback: page.feedback.map(presentFeedback), nextCursor: page.nextCursor, hasMore: page.hasMore };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/analytics/:projectId/feedback/by-page',
      summary: 'Feedback counts per page (thumbs up, thumbs down, code snippets), busiest first',
      tag: 'analytics',
      auth: 'admin',
      params: projectParams,
      query: feedbackByPageQuerySchema,
      rateLimit,
      responses: {
        200: {
          description: 'The `limit` busiest pages; hasMore says whether more pages have feedback',
          schema: z.object({
            feedback: z.array(
              z.object({ path: z.string(), thumbsUp: z.number(), thumbsDown: z.number(), code: z.number(), total: z.number() }),
            ),
            hasMore: z.boolean(),
          }),
        },
        ...errors,
      },
      handler(ctx, { params, query }) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = deps.ops.countByPage(params.projectId, toFilter(query), query.limit ?? 10);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/analytics/:projectId/feedback/by-day',
      summary: 'Feedback entries per UTC day and source, oldest first (an Enclave addition for charts)',
      tag: 'analytics',
      auth: 'admin',
      params: projectParams,
      query: feedbackFilterQuerySchema,
      rateLimit,
      responses: {
        200: {
          description: 'One entry per day that has feedback',
          schema: z.object({
            days: z.array(
              z.object({ date: z.string(), total: z.number(), ...Object.fromEntries(FEEDBACK_SOURCES.map((s) => [s, z.number()])) }),
            ),
          }),
        },
        ...errors,
      },
      handler(ctx, { params, query }) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { days: deps.ops.countByDay(params.projectId, toFilter(query)) };
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
      responses: {
        200: { description: 'The updated entry', schema: feedbackEntrySchema },
        ...errors,
        404: { description: 'No such entry in this project' },
      },
      async handler(ctx, { params, body }) {
        ctx.body = presentFeedback(await deps.ops.setStatus(params.projectId, params.id, body.status));
      },
    }),
  ];
}
