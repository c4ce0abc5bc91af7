import { z } from 'zod';
import type { ControlOperations } from '../createControlOperations.js';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import { presentProject, projectSchema } from './presentProject.js';

export const projectParams = z.strictObject({ projectId: z.string().describe('Project id (proj_…)') });

const projectPatch = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  features: z.strictObject({ staticExport: z.boolean().optional() }).optional(),
});

/** Read access to the key's own project. */
export function projectRoutes(deps: { control: ControlOperations }): RouteSpec[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/projects/:projectId',
      summary: 'Get the project the key belongs to',
      tag: 'projects',
      auth: 'admin',
      params: projectParams,
      responses: {
        200: { description: 'The project', schema: projectSchema },
        401: { description: 'Missing or invalid key' },
        403: { description: 'Key of another project' },
        404: { description: 'No such project' },
      },
      handler(ctx, { params }) {
        ctx.body = presentProject(deps.control.getProject(params.projectId));
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/v1/projects/:projectId',
      summary: "Rename the key's project or switch its features",
      tag: 'projects',
      auth: 'admin',
      params: projectParams,
      body: projectPatch,
      responses: {
        200: { description: 'The updated project', schema: projectSchema },
        400: { description: 'Invalid body (unknown fields included)' },
        401: { description: 'Missing or invalid key' },
        403: { description: 'Key of another project, or a read-only key' },
        404: { description: 'No such project' },
      },
      async handler(ctx, { params, body }) {
        ctx.body = presentProject(await deps.control.updateProject(params.projectId, body));
      },
    }),
  ];
}
