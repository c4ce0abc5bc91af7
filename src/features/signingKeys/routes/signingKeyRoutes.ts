import { z } from 'zod';
import type { SigningKeyring } from '../../../platform/SigningKeyring.js';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import type { Clock } from '../../../platform/Clock.js';
import { retireSigningKey } from '../retireSigningKey.js';
import { rotateSigningKey } from '../rotateSigningKey.js';

const signingKeySchema = z.object({
  kid: z.string().describe('Key id, as in the `kid` parameter of the links it signed'),
  createdAt: z.iso.datetime().describe('When the key was made (ISO 8601)'),
  active: z.boolean().describe('True for the one key that signs new links'),
});

const keyListSchema = z.object({ keys: z.array(signingKeySchema).describe('Every key that still verifies links, oldest first') });

/**
 * `/v1/signing-keys`: list, rotate and retire the keys of signed download links. The keyring
 * is appliance-wide (like deployments): any project's write key may rotate or retire; secrets
 * are never returned.
 */
export function signingKeyRoutes(deps: { keyring: SigningKeyring; clock: Clock; onChange(event: string, kid: string): void }): RouteSpec[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/signing-keys',
      summary: 'List the signing keys of download links (ids and dates, never secrets)',
      tag: 'signing-keys',
      auth: 'admin',
      responses: {
        200: { description: 'The keys', schema: keyListSchema },
        401: { description: 'Missing or invalid key' },
      },
      handler(ctx) {
        ctx.body = { keys: deps.keyring.list() };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/signing-keys/rotate',
      summary: 'Make a new key sign new links; links of older keys keep working until retired (write key of any project)',
      tag: 'signing-keys',
      auth: 'admin',
      responses: {
        201: { description: 'The new active key', schema: signingKeySchema },
        401: { description: 'Missing or invalid key' },
        403: { description: 'Read-only key' },
        409: { description: 'Already 32 keys: retire old ones first' },
      },
      async handler(ctx) {
        const key = await rotateSigningKey(deps.keyring, deps.clock);
        deps.onChange('rotated', key.kid);
        ctx.status = 201;
        ctx.body = key;
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/signing-keys/:kid',
      summary: 'Retire a key: every link it signed answers 403 from now on (write key of any project)',
      tag: 'signing-keys',
      auth: 'admin',
      params: z.strictObject({ kid: z.string().max(64).describe('Key id (k…)') }),
      responses: {
        200: { description: 'Retired; the keys that remain', schema: keyListSchema },
        401: { description: 'Missing or invalid key' },
        403: { description: 'Read-only key' },
        404: { description: 'No such key' },
        409: { description: 'The active key (rotate first)' },
      },
      async handler(ctx, { params }) {
        await retireSigningKey(deps.keyring, params.kid);
        deps.onChange('retired', params.kid);
        ctx.body = { keys: deps.keyring.list() };
      },
    }),
  ];
}
