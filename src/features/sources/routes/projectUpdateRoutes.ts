import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';
import type { AuthState } from '../../../http/AuthState.js';
import { AppError } from '../../../platform/AppError.js';
import type { SiteDirectory } from '../../control/SiteDirectory.js';
import type { GitSourceSync } from '../GitSourceSync.js';
import { startProjectUpdate } from '../startProjectUpdate.js';
import type { UpdateStatusRecord } from '../UpdateStatusRecord.js';
import { presentUpdateStatus, updateStatusSchema } from './presentUpdateStatus.js';

const common = {
  401: { description: 'Missing or invalid key', schema: errorBodySchema },
  403: { description: 'Key of another project, or a read-only key on a write', schema: errorBodySchema },
};

/** The hosted update API: `POST /v1/project/update/{projectId}` and `GET /v1/project/update-status/{statusId}`. */
// size: a list of route declarations (method, path, schemas for /openapi.json, a short handler each), read as a table
export function projectUpdateRoutes(deps: {
  sites: SiteDirectory;
  sync: GitSourceSync;
  findUpdate(projectId: string, id: string): UpdateStatusRecord | undefined;
  listUpdates(projectId: string, limit: number): UpdateStatusRecord[];
}): RouteSpec[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/project/update/:projectId',
      summary: "Fetch, export and deploy the project's sites from their deployment branches",
      tag: 'sources',
      auth: 'admin',
      params: z.strictObject({ projectId: z.string().min(1) }),
      responses: {
        202: {
          description: 'Queued; `statusIds` (Enclave) lists one status per git-sourced site',
          schema: z.object({ statusId: z.string(), statusIds: z.array(z.string()) }),
        },
        400: { description: 'No site of the project has a git source', schema: errorBodySchema },
        ...common,
        404: { description: 'Unknown project', schema: errorBodySchema },
      },
      async handler(ctx, { params }) {
        ctx.status = 202;
        ctx.body = await startProjectUpdate(deps, params.projectId, 'api');
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/project/updates/:projectId',
      summary: "Enclave: the project's recent git updates (webhook, poll, API), newest first",
      tag: 'sources',
      auth: 'admin',
      params: z.strictObject({ projectId: z.string().min(1) }),
      query: z.strictObject({ limit: z.coerce.number().int().min(1).max(100).default(20) }),
      responses: {
        200: { description: 'The updates', schema: z.object({ updates: z.array(updateStatusSchema) }) },
        400: { description: 'Invalid query', schema: errorBodySchema },
        ...common,
      },
      handler(ctx, { params, query }) {
        ctx.body = { updates: deps.listUpdates(params.projectId, query.limit).map(presentUpdateStatus) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/project/update-status/:statusId',
      summary: 'The state of an update',
      tag: 'sources',
      auth: 'admin',
      params: z.strictObject({ statusId: z.string().min(1) }),
      responses: {
        200: { description: 'The update', schema: updateStatusSchema },
        ...common,
        404: { description: 'No such update in the key’s project', schema: errorBodySchema },
      },
      handler(ctx, { params }) {
        const auth = ctx.state.auth as AuthState;
        const update = deps.findUpdate(auth.projectId, params.statusId);
        if (!update) throw AppError.notFound('Update status not found');
        ctx.body = presentUpdateStatus(update);
      },
    }),
  ];
}
