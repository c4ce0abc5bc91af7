import { Readable } from 'node:stream';
import { z } from 'zod';
import { AppError } from '../../../platform/AppError.js';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import type { RateLimiter } from '../../../http/RateLimiter.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';
import type { AgentRuntime } from '../AgentRuntime.js';
import { createAgentJob } from '../createAgentJob.js';
import { streamAgentRun } from '../streamAgentRun.js';
import { agentJobParams, agentProjectParams, createAgentJobBody, promptSchema } from './agentSchemas.js';
import { agentSessionSchema, presentAgentSession } from './presentAgentSession.js';

/** How often a v1 stream looks for more of the run's output. */
const STREAM_POLL_MS = 250;

const v1CreateBody = z.strictObject({
  branch: z.string().min(1).max(255).describe('Accepted for old scripts; Enclave agents always work on enclave/agent/<id>'),
  messages: z
    .array(z.strictObject({ role: z.enum(['system', 'user', 'assistant']), content: promptSchema }))
    .min(1)
    .describe('The prompt: the messages are joined in order'),
  asDraft: z.boolean().optional().describe('Accepted; the pull request link is built from agent.prLinkTemplate'),
  model: createAgentJobBody.shape.model,
});

const v1ListQuery = z.strictObject({
  skip: z.coerce.number().int().min(0).max(1_000_000).default(0).describe('Jobs to skip, newest first (default 0)'),
  take: z.coerce.number().int().min(1).max(100).default(50).describe('Jobs to return (1–100, default 50)'),
});

const common = {
  401: { description: 'Missing or invalid key', schema: errorBodySchema },
  403: { description: 'Key of another project, or a read-only key on a write', schema: errorBodySchema },
};

/** The deprecated v1 agent endpoints (hosted shapes), for scripts written against them; new code uses /v2. */
// size: a list of route declarations (method, path, schemas for /openapi.json, a short handler each), read as a table
export function agentV1Routes(deps: { runtime: AgentRuntime; limiter: RateLimiter }): RouteSpec[] {
  const { runtime, limiter } = deps;
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/agent/:projectId/job',
      summary: 'Deprecated (use /v2): start an agent job and stream its run',
      tag: 'agent',
      auth: 'admin',
      params: agentProjectParams,
      body: v1CreateBody,
      rateLimit: { limiter },
      responses: {
        200: {
          description: 'The run’s output as it happens, then its outcome; the job id is in X-Session-Id',
          schema: z.string(),
          contentType: 'text/plain',
        },
        400: { description: 'Invalid body (every problem listed)', schema: errorBodySchema },
        ...common,
        429: { description: 'More than agent.requestsPerHour creates + messages this hour', schema: errorBodySchema },
        503: { description: 'No agent command is configured on this server', schema: errorBodySchema },
      },
      async handler(ctx, { params, body }) {
        const prompt = body.messages.map((m) => (m.role === 'user' ? m.content : `[${m.role}] ${m.content}`)).join('\n\n');
        const job = await createAgentJob(runtime, params.projectId, { prompt, ...(body.model ? { model: body.model } : {}) });
        ctx.set('X-Session-Id', job.id);
        ctx.set('Cache-Control', 'no-store');
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = Readable.from(streamAgentRun(runtime, params.projectId, job.id, STREAM_POLL_MS));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/agent/:projectId/job/:id',
      summary: 'Deprecated (use /v2): get an agent job',
      tag: 'agent',
      auth: 'admin',
      params: agentJobParams,
      responses: {
        200: { description: 'The job', schema: agentSessionSchema },
        ...common,
        404: { description: 'No such job in this project', schema: errorBodySchema },
      },
      handler(ctx, { params }) {
        const job = runtime.store.find(params.projectId, params.id);
        if (!job) throw AppError.notFound('Agent job not found');
        ctx.set('Cache-Control', 'no-store');
        ctx.body = presentAgentSession(job);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/agent/:projectId/jobs',
      summary: 'Deprecated (use /v2): list the project’s agent jobs, newest first',
      tag: 'agent',
      auth: 'admin',
      params: agentProjectParams,
      query: v1ListQuery,
      responses: {
        200: { description: 'The jobs', schema: z.object({ allSessions: z.array(agentSessionSchema) }) },
        400: { description: 'Invalid skip or take (every problem listed)', schema: errorBodySchema },
        ...common,
      },
      handler(ctx, { params, query }) {
        const { jobs } = runtime.store.page(params.projectId, { limit: query.skip + query.take });
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { allSessions: jobs.slice(query.skip).map(presentAgentSession) };
      },
    }),
  ];
}
