import { z } from 'zod';
import { AppError } from '../../../platform/AppError.js';
import type { AgentRuntime } from '../AgentRuntime.js';
import { createAgentJob } from '../createAgentJob.js';
import { sendAgentMessage } from '../sendAgentMessage.js';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import type { RateLimiter } from '../../../http/RateLimiter.js';
import { encodeAgentJobCursor } from './agentJobCursor.js';
import { agentJobParams, agentMessageBody, agentProjectParams, createAgentJobBody, listAgentJobsQuery } from './agentSchemas.js';
import { agentJobPageSchema, agentJobSchema, presentAgentJob } from './presentAgentJob.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';

const common = {
  401: { description: 'Missing or invalid key', schema: errorBodySchema },
  403: { description: 'Key of another project, or a read-only key on a write', schema: errorBodySchema },
};

/** The agent-jobs API (`/v2/agent`); create and message share `limiter`. */
// size: a list of route declarations (method, path, schemas for /openapi.json, a short handler each), read as a table
export function agentRoutes(deps: { runtime: AgentRuntime; limiter: RateLimiter }): RouteSpec[] {
  const { runtime, limiter } = deps;
  return [
    defineRoute({
      method: 'POST',
      path: '/v2/agent/:projectId/job',
      summary: 'Start an agent job on a docs repository',
      tag: 'agent',
      auth: 'admin',
      params: agentProjectParams,
      body: createAgentJobBody,
      rateLimit: { limiter },
      responses: {
        201: { description: 'The job, `active`; it runs in the background', schema: agentJobSchema },
        400: { description: 'Invalid body (every problem listed)', schema: errorBodySchema },
        ...common,
        429: { description: 'More than agent.requestsPerHour creates + messages this hour', schema: errorBodySchema },
        503: { description: 'No agent command is configured on this server', schema: errorBodySchema },
      },
      async handler(ctx, { params, body }) {
        const job = await createAgentJob(runtime, params.projectId, body);
        ctx.status = 201;
        ctx.set('Location', `/v2/agent/${params.projectId}/job/${job.id}`);
        ctx.body = presentAgentJob(job);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v2/agent/:projectId/job/:id',
      summary: 'Get an agent job',
      tag: 'agent',
      auth: 'admin',
      params: agentJobParams,
      responses: {
        200: { description: 'The job', schema: agentJobSchema },
        ...common,
        404: { description: 'No such job in this project', schema: errorBodySchema },
      },
      handler(ctx, { params }) {
        const job = runtime.store.find(params.projectId, params.id);
        if (!job) throw AppError.notFound('Agent job not found');
        ctx.set('Cache-Control', 'no-store');
        ctx.body = presentAgentJob(job);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v2/agent/:projectId/job/:id/message',
      summary: 'Send a follow-up prompt: the agent runs again on the same branch',
      tag: 'agent',
      auth: 'admin',
      params: agentJobParams,
      body: agentMessageBody,
      rateLimit: { limiter },
      responses: {
        200: { description: 'The job, `active`; a job already running takes the message and runs it next', schema: agentJobSchema },
        400: { description: 'Invalid body (every problem listed)', schema: errorBodySchema },
        ...common,
        404: { description: 'No such job in this project', schema: errorBodySchema },
        409: { description: 'The job is archived', schema: errorBodySchema.extend({ status: z.string() }) },
        429: { description: 'More than agent.requestsPerHour creates + messages this hour', schema: errorBodySchema },
        503: { description: 'No agent command is configured on this server', schema: errorBodySchema },
      },
      async handler(ctx, { params, body }) {
        ctx.body = presentAgentJob(await sendAgentMessage(runtime, params.projectId, params.id, body.prompt));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v2/agent/:projectId/jobs',
      summary: "List the project's agent jobs, newest first",
      tag: 'agent',
      auth: 'admin',
      params: agentProjectParams,
      query: listAgentJobsQuery,
      responses: {
        200: { description: 'One page of jobs', schema: agentJobPageSchema },
        400: { description: 'Invalid status, limit or cursor (every problem listed)', schema: errorBodySchema },
        ...common,
      },
      handler(ctx, { params, query }) {
        const page = runtime.store.page(params.projectId, query);
        const last = page.jobs.at(-1);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = {
          jobs: page.jobs.map(presentAgentJob),
          nextCursor: page.hasMore && last ? encodeAgentJobCursor(last) : null,
          hasMore: page.hasMore,
        };
      },
    }),
  ];
}
