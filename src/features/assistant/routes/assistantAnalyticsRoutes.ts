import { z } from 'zod';
import { checkDateRange, dateBoundParam, limitParam } from '../../../http/analyticsQueryParams.js';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';
import type { RateLimiter } from '../../../http/RateLimiter.js';
import { AppError } from '../../../platform/AppError.js';
import type { AssistantTurn } from '../threads/AssistantTurn.js';
import { presentConversation, presentThread } from '../threads/presentTurns.js';
import { countCallers, pageTurns } from '../threads/queryTurns.js';

/** The stored turns, read-only (the thread log's port). */
export interface TurnReader {
  all(): readonly AssistantTurn[];
  thread(threadId: string): readonly AssistantTurn[] | undefined;
}

const range = {
  dateFrom: dateBoundParam('Inclusive lower bound: YYYY-MM-DD or ISO 8601.'),
  dateTo: dateBoundParam('Exclusive upper bound: YYYY-MM-DD or ISO 8601.'),
};
const listQuery = z
  .strictObject({
    ...range,
    limit: limitParam(100, 1000),
    cursor: z.string().min(1).max(100).optional().describe('nextCursor of the previous page'),
  })
  .superRefine(checkDateRange, { when: () => true });
const statsQuery = z.strictObject(range).superRefine(checkDateRange, { when: () => true });

const conversationSchema = z.object({
  id: z.string(),
  threadId: z.string().describe('For …/assistant/threads/{threadId}'),
  timestamp: z.string(),
  query: z.string(),
  response: z.string(),
  responseType: z.enum(['answer', 'clarifying_question']),
  sources: z.array(z.object({ title: z.string(), url: z.string() })),
  resolutionStatus: z.enum(['answered', 'unanswered']),
  queryCategory: z.string(),
  pageUrl: z.string().nullable(),
});
const errors = {
  400: { description: 'Invalid parameters (every problem listed)', schema: errorBodySchema },
  401: { description: 'Missing or invalid admin key', schema: errorBodySchema },
  403: { description: 'Key of another project', schema: errorBodySchema },
  429: {
    description: 'Analytics budget of this project spent (Retry-After); shared with the other analytics endpoints',
    schema: errorBodySchema,
  },
};

// size: a list of route declarations (path, schemas for /openapi.json, a short handler each), read as a table
/** `GET /v1/analytics/{projectId}/assistant…`: the assistant's conversations, threads and callers, on the analytics budget. */
export function assistantAnalyticsRoutes(deps: { turns: TurnReader; limiter: RateLimiter }): RouteSpec[] {
  const common = {
    tag: 'analytics',
    auth: 'admin' as const,
    params: z.object({ projectId: z.string() }),
    rateLimit: { limiter: deps.limiter },
    method: 'GET' as const,
  };
  return [
    defineRoute({
      ...common,
      path: '/v1/analytics/:projectId/assistant',
      summary: 'Questions readers asked the assistant and its answers, newest first (hosted shape)',
      query: listQuery,
      responses: {
        200: {
          description: 'One page of conversations',
          schema: z.object({ conversations: z.array(conversationSchema), nextCursor: z.string().nullable(), hasMore: z.boolean() }),
        },
        ...errors,
      },
      handler(ctx, { params, query }) {
        const page = pageTurns(
          deps.turns.all(),
          { projectId: params.projectId, fromMs: query.dateFrom, toMs: query.dateTo },
          { limit: query.limit ?? 100, cursor: query.cursor },
        );
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { conversations: page.turns.map(presentConversation), nextCursor: page.nextCursor, hasMore: page.nextCursor !== null };
      },
    }),
    defineRoute({
      ...common,
      path: '/v1/analytics/:projectId/assistant/threads/:threadId',
      summary: 'One thread: every question and answer, oldest first',
      params: z.object({ projectId: z.string(), threadId: z.string().min(1).max(100) }),
      responses: {
        200: {
          description: 'The thread',
          schema: z.object({
            threadId: z.string(),
            createdAt: z.string(),
            messages: z.array(
              z.object({ id: z.string(), role: z.enum(['user', 'assistant']), content: z.string(), createdAt: z.string() }),
            ),
          }),
        },
        ...errors,
        404: { description: 'No such thread in this project', schema: errorBodySchema },
      },
      handler(ctx, { params }) {
        const turns = deps.turns.thread(params.threadId);
        if (!turns || turns[0]!.projectId !== params.projectId) throw AppError.notFound(`No thread ${params.threadId} in this project`);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = presentThread(turns);
      },
    }),
    defineRoute({
      ...common,
      path: '/v1/analytics/:projectId/assistant/caller-stats',
      summary: "Questions by caller: the site's panel (web), assistant keys (api), other",
      query: statsQuery,
      responses: {
        200: { description: 'Counts', schema: z.object({ web: z.number(), api: z.number(), other: z.number(), total: z.number() }) },
        ...errors,
      },
      handler(ctx, { params, query }) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = countCallers(deps.turns.all(), { projectId: params.projectId, fromMs: query.dateFrom, toMs: query.dateTo });
      },
    }),
  ];
}
