import { z } from 'zod';
import { AppError } from '../../../domain/AppError.js';
import type { ControlStore } from '../../../store/ControlStore.js';
import { defineRoute, type RouteSpec } from '../../defineRoute.js';
import { presentProject, projectSchema } from './presentProject.js';

export const projectParams = z.strictObject({ projectId: z.string().describe('Project id (proj_…)') });

/** Read access to the key's own project. */
export function projectRoutes(deps: { control: ControlStore }): RouteSpec[] {
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
        const project = deps.control.projects.find(params.projectId);
        if (!project) throw AppError.notFound('Project not found');
        ctx.body = presentProject(project);
      },
    }),
  ];
}
