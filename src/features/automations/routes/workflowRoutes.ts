import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';
import type { AutomationStarted } from '../runAutomation.js';

/** The hosted workflow API: `POST /v1/workflow/{projectId}/{automationId}/trigger`. */
export function workflowRoutes(deps: { trigger(projectId: string, automationId: string): Promise<AutomationStarted> }): RouteSpec[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/workflow/:projectId/:automationId/trigger',
      summary: 'Run an automation now (an agent job told the commits since its last completed run)',
      tag: 'automations',
      auth: 'admin',
      params: z.strictObject({ projectId: z.string().min(1), automationId: z.string().min(1) }),
      responses: {
        202: {
          description: 'The run started',
          schema: z.object({
            schemaId: z.string().describe('The automation id'),
            instanceId: z.string().describe('This run'),
            jobId: z.string().describe('The agent job: GET /v2/agent/{projectId}/job/{jobId}'),
          }),
        },
        400: { description: 'The automation has no schedule', schema: errorBodySchema },
        401: { description: 'Missing or invalid key', schema: errorBodySchema },
        403: { description: 'Key of another project, or a read-only key', schema: errorBodySchema },
        404: { description: 'No such automation in this project', schema: errorBodySchema },
        503: { description: 'No agent command is configured', schema: errorBodySchema },
      },
      async handler(ctx, { params }) {
        ctx.status = 202;
        ctx.body = await deps.trigger(params.projectId, params.automationId);
      },
    }),
  ];
}
