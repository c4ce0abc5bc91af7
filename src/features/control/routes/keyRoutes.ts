import { z } from 'zod';
import { callerProject } from '../../../http/callerProject.js';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';
import type { AuthState } from '../../../http/AuthState.js';
import type { ControlOperations } from '../createControlOperations.js';
import { adminKeySchema, presentAdminKey } from './presentControl.js';

const createBody = z.strictObject({
  name: z.string().trim().min(1).max(200).describe('What the key is for (a script, a person)'),
  scope: z.enum(['read', 'write']).default('write').describe('read: GET/HEAD only (an assistant key is always read)'),
  kind: z
    .enum(['admin', 'assistant'])
    .default('admin')
    .describe(
      "assistant: a key (prefix enc_asst_) that may be embedded in pages and calls only /v1/search, /v1/page, the assistant endpoints and /_enclave/mcp of this project's sites",
    ),
  expiresAt: z.iso
    .datetime({ offset: true })
    .optional()
    .describe(
      "When the key stops working (ISO 8601); never when omitted. Never later than the calling key's own expiry: a later date, or none, is cut to it",
    ),
});

const revokeQuery = z.object({
  cascade: z
    .enum(['true', 'false'])
    .default('false')
    .describe('true: also revoke every key this key created, and the keys those created (as recorded in `createdBy`)'),
});

const keyParams = z.strictObject({ keyId: z.string().max(64).describe('Key id (key_…)') });

const unauthorized = { description: 'Missing or invalid key', schema: errorBodySchema };

/** `/v1/keys`: the admin keys of the caller's project, managed while the appliance runs. */
// size: a list of route declarations (method, path, schemas for /openapi.json, a short handler each), read as a table
export function keyRoutes(deps: { control: ControlOperations }): RouteSpec[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/keys',
      summary: "List the project's admin keys (last four characters and last use; never the secret)",
      tag: 'keys',
      auth: 'admin',
      responses: { 200: { description: 'The keys, oldest first', schema: z.object({ keys: z.array(adminKeySchema) }) }, 401: unauthorized },
      handler(ctx) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { keys: deps.control.listKeys(callerProject(ctx)).map(presentAdminKey) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/keys',
      summary: 'Create an admin key; the response is the only time the secret is shown',
      tag: 'keys',
      auth: 'admin',
      body: createBody,
      responses: {
        201: {
          description: 'The new key, with its secret in `key`',
          schema: adminKeySchema.extend({ key: z.string().describe('The secret: shown once, store it now') }),
        },
        400: { description: 'Invalid body, or an expiry in the past', schema: errorBodySchema },
        401: unauthorized,
        403: { description: 'Read-only key', schema: errorBodySchema },
      },
      async handler(ctx, { body }) {
        const { key, record } = await deps.control.createKey({
          projectId: callerProject(ctx),
          name: body.name,
          scope: body.scope,
          kind: body.kind,
          expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
          createdBy: (ctx.state.auth as AuthState).keyId,
        });
        ctx.set('Cache-Control', 'no-store');
        ctx.status = 201;
        ctx.body = { ...presentAdminKey(record), key };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/keys/:keyId',
      summary:
        'Revoke an admin key (it answers 401 from now on; with `cascade=true` so do the keys it created); revoking twice is harmless',
      tag: 'keys',
      auth: 'admin',
      params: keyParams,
      query: revokeQuery,
      responses: {
        200: {
          description: 'The revoked key',
          schema: adminKeySchema.extend({ alsoRevoked: z.array(z.string()).describe('Ids of the keys revoked with it (`cascade=true`)') }),
        },
        401: unauthorized,
        403: { description: 'Read-only key', schema: errorBodySchema },
        404: { description: 'No such key in this project', schema: errorBodySchema },
        409: { description: 'The project would be left without a usable write key: create another first', schema: errorBodySchema },
      },
      async handler(ctx, { params, query }) {
        const { key, alsoRevoked } = await deps.control.revokeKey(callerProject(ctx), params.keyId, { cascade: query.cascade === 'true' });
        ctx.body = { ...presentAdminKey(key), alsoRevoked: alsoRevoked.map((k) => k.id) };
      },
    }),
  ];
}
