import { z } from 'zod';
import { BundleRefusedError } from '../../../bundle/BundleRefusedError.js';
import { AppError } from '../../../platform/AppError.js';
import type { SiteDeployments } from '../SiteDeployments.js';
import { domainSchema } from '../../../config/sections/sites.js';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import { deploymentSchema, presentDeployment } from './presentDeployment.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';

const outcomeSchema = deploymentSchema.extend({ outcome: z.enum(['activated', 'unchanged', 'reactivated']) });
const refusedSchema = errorBodySchema.extend({ deploymentId: z.string().nullable().optional() });
const bundleSource = z
  .string()
  .min(1)
  .max(4096)
  .refine(
    (s) => /^(https?|file):\/\//i.test(s) || s.startsWith('/'),
    'bundleUrl must be an http(s):// or file:// URL or an absolute path on the appliance',
  );
const siteField = domainSchema.nullable().optional().describe('The site (a configured domain); default: the default site');
const statusSchema = z.object({
  site: z.string().nullable().describe('The site shown (its domain), or null for the default site'),
  active: deploymentSchema.nullable(),
  kept: z.array(deploymentSchema).describe('Versions on disk that a rollback can switch to, newest first'),
  running: deploymentSchema.nullable(),
  history: z.array(deploymentSchema).describe('Latest deployment attempts, newest first'),
  events: z.array(
    z.object({ at: z.string(), kind: z.string(), deploymentId: z.string(), version: z.string().nullable(), detail: z.string().nullable() }),
  ),
  lastError: z.object({ at: z.string(), source: z.string(), reason: z.string() }).nullable(),
});

/**
 * The deployment API. Deployments belong to the appliance's sites (the default site unless a
 * `domain` is named), not to projects, so any project's key may use it: a read key may look, a
 * write key may deploy or roll back. POST /v1/deployments waits up to `waitMs`
 * (staticExport.deployWaitSeconds, 10 s by default): 200 when the bundle went live (or was
 * already live), 422 when it was refused, 409 when its build report lists failed pages (unless
 * allowFailed), else 202 with the running record (poll GET /v1/deployments/{id}).
 */
// size: a list of route declarations (method, path, schemas for /openapi.json, a short handler each), read as a table
export function deploymentRoutes(sites: SiteDeployments, waitMs: number): RouteSpec[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/deployments',
      summary:
        'Deploy a bundle (fetch, verify, activate); waits up to staticExport.deployWaitSeconds (10 s), then answers 202 (write key of any project)',
      tag: 'deployments',
      auth: 'admin',
      body: z.strictObject({
        bundleUrl: bundleSource.describe('http(s):// URL (e.g. a signed link), file:// URL or absolute path on the appliance'),
        version: z.string().min(1).max(200).nullable().optional().describe('Pin: refuse the bundle unless its manifest names this version'),
        domain: siteField,
        label: z.string().min(1).max(200).nullable().optional().describe('A name for this deployment, shown in the history'),
        allowFailed: z
          .boolean()
          .optional()
          .describe("Activate even when the bundle's build report lists failed pages (recorded on the deployment)"),
        allowOtherDomain: z
          .boolean()
          .optional()
          .describe("Activate even when the bundle's manifest names another domain than the site deployed to (recorded on the deployment)"),
      }),
      responses: {
        200: {
          description:
            'Activated (`outcome: activated`), the same bundle was already active (`unchanged`), or a kept copy of it was switched back to (`reactivated`); a redeploy adds no history row',
          schema: outcomeSchema,
        },
        202: { description: 'Still running; poll GET /v1/deployments/{id}', schema: deploymentSchema },
        404: { description: 'No such site is configured', schema: errorBodySchema },
        409: {
          description:
            "Another deployment is running, the bundle's build report lists failed pages (deploy with allowFailed to serve it anyway), or its manifest names another site's domain (allowOtherDomain)",
          schema: refusedSchema,
        },
        422: { description: 'Bundle could not be fetched or failed verification; the live site is unchanged', schema: refusedSchema },
      },
      async handler(ctx, { body }) {
        const deployer = await sites.ensure(body.domain ?? null);
        const request = {
          origin: 'api' as const,
          pin: body.version ?? null,
          failIfBusy: true,
          label: body.label ?? null,
          allowFailed: body.allowFailed ?? false,
          checkDomain: true,
          allowOtherDomain: body.allowOtherDomain ?? false,
        };
        const started = await deployer.begin(body.bundleUrl, request);
        started.finished.catch(() => {}); // the outcome is recorded either way; a late failure must not go unhandled
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<'pending'>((resolve) => (timer = setTimeout(() => resolve('pending'), waitMs)));
        try {
          const finished = await Promise.race([started.finished, timeout]);
          if (finished === 'pending') {
            ctx.status = 202;
            ctx.set('Location', `/v1/deployments/${started.record.id}`);
            ctx.body = presentDeployment(deployer.record(started.record.id) ?? started.record);
            return;
          }
          ctx.body = { ...presentDeployment(finished.record), outcome: finished.outcome };
        } catch (err) {
          if (err instanceof BundleRefusedError) {
            const prefix = err.stage === 'fetch' ? 'Bundle could not be fetched' : 'Bundle refused';
            throw new AppError(err.stage === 'report' || err.stage === 'domain' ? 409 : 422, `${prefix}: ${err.reason}`, {
              extra: { deploymentId: started.record.id },
            });
          }
          throw err;
        } finally {
          clearTimeout(timer);
        }
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/deployments',
      summary: "A site's live version, kept versions, recent attempts and the last error (the default site unless ?domain= names one)",
      tag: 'deployments',
      auth: 'admin',
      query: z.object({ domain: siteField }),
      responses: {
        200: { description: 'Deployment state', schema: statusSchema },
        404: { description: 'No such site is configured', schema: errorBodySchema },
      },
      async handler(ctx, { query }) {
        const deployer = sites.lookup(query.domain ?? null);
        const status = deployer?.status() ?? { active: null, kept: [], running: null, history: [], events: [], lastError: null };
        ctx.set('Cache-Control', 'no-store');
        ctx.body = {
          site: deployer ? deployer.site : (query.domain ?? '').toLowerCase(),
          active: status.active && presentDeployment(status.active),
          kept: status.kept.map(presentDeployment),
          running: status.running && presentDeployment(status.running),
          history: status.history.map(presentDeployment),
          events: status.events,
          lastError: status.lastError,
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/deployments/:id',
      summary: 'One deployment attempt',
      tag: 'deployments',
      auth: 'admin',
      params: z.object({ id: z.string().regex(/^dp_[0-9a-f]{16}$/, 'id must look like dp_ + 16 hex digits') }),
      responses: {
        200: { description: 'The deployment', schema: deploymentSchema },
        404: { description: 'Unknown deployment', schema: errorBodySchema },
      },
      handler(ctx, { params }) {
        const record = sites.record(params.id);
        if (!record) throw AppError.notFound('No such deployment');
        ctx.set('Cache-Control', 'no-store');
        ctx.body = presentDeployment(record);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/deployments/rollback',
      summary: 'Switch back to a kept version: the named one (version label or deployment id), else the previous',
      tag: 'deployments',
      auth: 'admin',
      body: z.strictObject({
        version: z
          .string()
          .min(1)
          .max(200)
          .nullable()
          .optional()
          .describe('Version label or deployment id; default: the previously active version'),
        domain: siteField,
      }),
      responses: {
        200: { description: 'Now active', schema: deploymentSchema },
        404: { description: 'No such kept version, or no such site', schema: errorBodySchema },
        409: { description: 'A deployment is running, or that version is already active', schema: refusedSchema },
      },
      async handler(ctx, { body }) {
        const deployer = sites.lookup(body.domain ?? null);
        if (!deployer) throw AppError.notFound(`Site ${body.domain} has no deployments of its own to roll back`);
        ctx.body = presentDeployment(await deployer.rollback(body.version ?? null));
      },
    }),
  ];
}
