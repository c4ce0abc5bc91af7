import { z } from 'zod';
import { BRANCH_NAME } from '../../../../config/sections/gitSource.js';
import { defineRoute, type RouteSpec } from '../../../../http/defineRoute.js';
import { errorBodySchema } from '../../../../http/errorBodySchema.js';
import type { SiteDirectory } from '../../../control/SiteDirectory.js';
import type { GitPreviews } from '../GitPreviews.js';
import { startPreview } from '../startPreview.js';
import { presentPreview, previewSchema } from './presentPreview.js';

const common = {
  401: { description: 'Missing or invalid key', schema: errorBodySchema },
  403: { description: 'Key of another project, or a read-only key on a write', schema: errorBodySchema },
};

/**
 * The hosted preview API, `POST /v1/project/preview/{projectId}`, and Enclave's listing and
 * deletion of previews beside it.
 */
// size: a list of route declarations (method, path, schemas for /openapi.json, a short handler each), read as a table
export function previewRoutes(deps: { sites: SiteDirectory; previews: GitPreviews }): RouteSpec[] {
  const { previews } = deps;
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/project/preview/:projectId',
      // 202 at once; the fetch, export and deploy are reported on the update status (a branch the
      // remote lacks ends as `failure`). A second call for a branch redeploys it at the same URL.
      summary: "Export a branch of the project's git source and serve it as a preview (redeploys on a second call)",
      tag: 'sources',
      auth: 'admin',
      params: z.strictObject({ projectId: z.string().min(1) }),
      body: z.strictObject({
        branch: z.string().min(1).max(200).regex(BRANCH_NAME, 'must be a branch name'),
        domain: z
          .string()
          .min(1)
          .max(253)
          .optional()
          .describe('Enclave: which git-sourced site of the project (needed when it has several)'),
      }),
      responses: {
        202: {
          description: 'Queued (or already queued for this branch: the same status)',
          schema: z.object({ statusId: z.string(), previewUrl: z.string().url() }),
        },
        400: { description: 'Invalid branch name, or no (single) git-sourced site to preview', schema: errorBodySchema },
        ...common,
        404: { description: 'Unknown project or site', schema: errorBodySchema },
      },
      async handler(ctx, { params, body }) {
        const { statusId, previewUrl } = await startPreview(deps, params.projectId, body, 'api');
        ctx.status = 202;
        ctx.body = { statusId, previewUrl };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/project/previews/:projectId',
      summary: "Enclave: the project's previews, newest first",
      tag: 'sources',
      auth: 'admin',
      params: z.strictObject({ projectId: z.string().min(1) }),
      responses: {
        200: { description: 'The previews', schema: z.object({ previews: z.array(previewSchema) }) },
        ...common,
      },
      handler(ctx, { params }) {
        ctx.body = { previews: previews.list(params.projectId).map((p) => presentPreview(p, previews.urls(p))) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/project/preview/:projectId/:preview',
      summary: 'Enclave: delete a preview (by id or branch name); it stops being served at once',
      tag: 'sources',
      auth: 'admin',
      params: z.strictObject({ projectId: z.string().min(1), preview: z.string().min(1).max(200) }),
      responses: {
        204: { description: 'Deleted' },
        ...common,
        404: { description: 'No such preview in the project', schema: errorBodySchema },
      },
      async handler(ctx, { params }) {
        await previews.remove(previews.find(params.projectId, params.preview));
        ctx.status = 204;
      },
    }),
  ];
}
