import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../http/defineRoute.js';
import { buildOpenApiDocument } from '../../http/openapi/buildOpenApiDocument.js';

/** `GET /openapi.json`, built once from every mounted route (including itself). */
export function openapiRoutes(deps: { version: string; allRoutes: () => RouteSpec[] }): RouteSpec[] {
  let cached: Record<string, unknown> | null = null;
  return [
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      summary: 'The OpenAPI 3.1 description of this API',
      tag: 'meta',
      auth: 'public',
      responses: { 200: { description: 'OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
      handler(ctx) {
        cached ??= buildOpenApiDocument(deps.allRoutes(), { version: deps.version });
        ctx.body = cached;
      },
    }),
  ];
}
