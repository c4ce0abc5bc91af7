import { z } from 'zod';
import { readerAuthConfigSchema } from '../../../config/sections/readerAuth.js';
import { domainSchema } from '../../../config/sections/sites.js';
import { callerProject } from '../../../http/callerProject.js';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';
import type { ControlOperations } from '../createControlOperations.js';
import { presentSite, siteSchema } from './presentControl.js';

const source = z.string().min(1).max(4096).describe('Absolute path of the docs folder (or local git repository) on the appliance');
const ref = z.string().min(1).max(255).nullable().describe('Git ref to export when source is a repository');
const auth = readerAuthConfigSchema.describe('Reader sign-in: mode none (open, the default) or password (stored only as its scrypt hash)');
const siteBody = z.strictObject({ domain: domainSchema.describe('Bare host name'), source, ref: ref.optional(), auth: auth.optional() });
const sitePatch = z.strictObject({ source: source.optional(), ref: ref.optional(), auth: auth.optional() });
const siteParams = z.strictObject({ domain: domainSchema });

const unauthorized = { description: 'Missing or invalid key', schema: errorBodySchema };
const readOnly = { description: 'Read-only key', schema: errorBodySchema };

/** `/v1/sites`: the project's docs sites, managed while the appliance runs. */
// size: a list of route declarations (method, path, schemas for /openapi.json, a short handler each), read as a table
export function siteRoutes(deps: { control: ControlOperations }): RouteSpec[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/sites',
      summary: "List the project's sites (config-file ones and those added at run time)",
      tag: 'sites',
      auth: 'admin',
      responses: { 200: { description: 'The sites', schema: z.object({ sites: z.array(siteSchema) }) }, 401: unauthorized },
      handler(ctx) {
        ctx.body = { sites: deps.control.listSites(callerProject(ctx)).map(presentSite) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/sites',
      summary: 'Add a site: a host name and the docs folder it is exported from',
      tag: 'sites',
      auth: 'admin',
      body: siteBody,
      responses: {
        201: { description: 'The site', schema: siteSchema },
        400: { description: 'Invalid body, or a source that is not a Mintlify docs folder', schema: errorBodySchema },
        401: unauthorized,
        403: readOnly,
        409: { description: 'A site with that domain exists', schema: errorBodySchema },
      },
      async handler(ctx, { body }) {
        const site = await deps.control.addSite(callerProject(ctx), body);
        ctx.status = 201;
        ctx.set('Location', `/v1/sites/${site.domain}`);
        ctx.body = presentSite(site);
      },
    }),
    defineRoute({
      method: 'PATCH',
      path: '/v1/sites/:domain',
      summary: "Change a site's source or ref",
      tag: 'sites',
      auth: 'admin',
      params: siteParams,
      body: sitePatch,
      responses: {
        200: { description: 'The site', schema: siteSchema },
        400: { description: 'Invalid body or source', schema: errorBodySchema },
        401: unauthorized,
        403: readOnly,
        404: { description: 'No such site in this project', schema: errorBodySchema },
        409: { description: 'The site is declared in the config file', schema: errorBodySchema },
      },
      async handler(ctx, { params, body }) {
        ctx.body = presentSite(await deps.control.updateSite(callerProject(ctx), params.domain, body));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/sites/:domain',
      summary: 'Remove a site added at run time (its deployed versions stay on disk)',
      tag: 'sites',
      auth: 'admin',
      params: siteParams,
      responses: {
        204: { description: 'Removed' },
        401: unauthorized,
        403: readOnly,
        404: { description: 'No such site in this project', schema: errorBodySchema },
        409: { description: 'The site is declared in the config file', schema: errorBodySchema },
      },
      async handler(ctx, { params }) {
        await deps.control.removeSite(callerProject(ctx), params.domain);
        ctx.status = 204;
      },
    }),
  ];
}
