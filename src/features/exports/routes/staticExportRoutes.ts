import { z } from 'zod';
import { exportAudienceSchema } from '../ExportJobRecord.js';
import { domainSchema } from '../../../config/sections/sites.js';
import type { ExportOperations } from '../createExportOperations.js';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import { callerProject } from '../../../http/callerProject.js';
import { bundleLinkSchema, exportJobSchema, presentExportJob } from './presentExportJob.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';
import { VERSION_LABEL, VERSION_LABEL_RULE } from '../../../platform/versionLabel.js';
import { EXPORT_JOB_STATUSES } from '../ExportJobRecord.js';
import { BUNDLE_FORMATS } from '../issueBundleLink.js';

/** What the static-export routes work with. */
export interface StaticExportRouteDeps {
  exports: ExportOperations;
  /** Called after a job is queued (wakes the worker). */
  onQueued: () => void;
}

const startBody = z.strictObject({
  domain: domainSchema.describe('Bare host name of one of the project’s sites'),
  version: z
    .string()
    .regex(VERSION_LABEL, VERSION_LABEL_RULE)
    .optional()
    .describe('Version label recorded in the bundle; default derived from the content'),
  paths: z.array(z.string().min(1).max(1024)).min(1).max(100_000).optional().describe('Only these page paths'),
  strict: z.boolean().optional().describe('Fail the job on the first page that does not render'),
  shipWarnings: z
    .boolean()
    .optional()
    .describe(
      'Ship pages whose content had to be dropped (a broken `{expression}`) with a warning, instead of failing them (default false: such a page is a failed page and deploy refuses the bundle)',
    ),
  audience: exportAudienceSchema
    .optional()
    .describe(
      'Export only what one reader audience may open under reader sign-in: "public" (not signed in) or a list of groups (a signed-in reader holding them). Default: every page',
    ),
  keepRemoteAssets: z
    .boolean()
    .optional()
    .describe(
      'Keep remote images, frames, font imports and third-party scripts (default false: removed and listed in the report, so the bundle never contacts another origin)',
    ),
  full: z
    .boolean()
    .optional()
    .describe(
      "Render every page afresh: the site's incremental cache is thrown away first (default false: pages whose inputs are unchanged since the last export are reused)",
    ),
});

const bundleBody = z.strictObject({
  format: z
    .enum(BUNDLE_FORMATS)
    .default('zip')
    .describe('Archive format of the download: `zip` (default) or `tar.gz` (packed from the zip on first request, then kept)'),
});

const jobParams = z.strictObject({ jobId: z.string().max(64).describe('Export job id (se_…)') });

const recentQuery = z.strictObject({
  status: z.enum(EXPORT_JOB_STATUSES).optional().describe('Only jobs in this status'),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('How many jobs (1–100, default 20)'),
});

/** `/v1/static-export`: start a job, poll it, get a signed link to its bundle. */
// size: a list of route declarations (method, path, schemas for /openapi.json, a short handler each), read as a table
export function staticExportRoutes(deps: StaticExportRouteDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/static-export/jobs',
      summary: 'Start a static export of a site',
      tag: 'static-export',
      auth: 'admin',
      body: startBody,
      responses: {
        202: {
          description: 'Queued; when the domain already has a job queued or running, that job (nothing new is queued)',
          schema: exportJobSchema,
        },
        400: { description: 'Invalid body or a domain that is not a site of this project', schema: errorBodySchema },
        401: { description: 'Missing or invalid key', schema: errorBodySchema },
        403: { description: 'Static export not enabled for the project, or a read-only key', schema: errorBodySchema },
      },
      async handler(ctx, { body }) {
        const job = await deps.exports.start(callerProject(ctx), body);
        // Presented before the worker is woken: the 202 shows the job as it was accepted.
        ctx.body = presentExportJob(job);
        ctx.status = 202;
        ctx.set('Location', `/v1/static-export/jobs/${job.id}`);
        deps.onQueued();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/static-export/jobs',
      summary: 'List the project’s most recent export jobs, newest first (with their failed pages and warnings)',
      tag: 'static-export',
      auth: 'admin',
      query: recentQuery,
      responses: {
        200: { description: 'The jobs', schema: z.object({ jobs: z.array(exportJobSchema), hasMore: z.boolean() }) },
        400: { description: 'Invalid query (every problem listed)', schema: errorBodySchema },
        401: { description: 'Missing or invalid key', schema: errorBodySchema },
      },
      handler(ctx, { query }) {
        const { jobs, hasMore } = deps.exports.recent(callerProject(ctx), query);
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { jobs: jobs.map(presentExportJob), hasMore };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/static-export/jobs/:jobId',
      summary: 'Get an export job',
      tag: 'static-export',
      auth: 'admin',
      params: jobParams,
      responses: {
        200: { description: 'The job', schema: exportJobSchema },
        401: { description: 'Missing or invalid key', schema: errorBodySchema },
        404: { description: 'No such job in this project', schema: errorBodySchema },
      },
      handler(ctx, { params }) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = presentExportJob(deps.exports.get(callerProject(ctx), params.jobId));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/static-export/jobs/:jobId/bundle',
      summary: 'Get a fresh signed, expiring download link to a completed job’s bundle (zip or tar.gz)',
      tag: 'static-export',
      auth: 'admin',
      params: jobParams,
      body: bundleBody,
      responses: {
        200: { description: 'The bundle link', schema: bundleLinkSchema },
        401: { description: 'Missing or invalid key', schema: errorBodySchema },
        403: { description: 'Read-only key', schema: errorBodySchema },
        404: { description: 'No such job in this project', schema: errorBodySchema },
        409: { description: 'The job is not completed; `status` says what it is', schema: errorBodySchema.extend({ status: z.string() }) },
      },
      async handler(ctx, { params, body }) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = await deps.exports.issueLink(callerProject(ctx), params.jobId, body.format);
      },
    }),
  ];
}
