import { z } from 'zod';
import { defineRoute, type RouteRateLimit, type RouteSpec } from '../../../http/defineRoute.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';
import type { Retriever } from '../retrieval/Retriever.js';
import { callerAudience } from '../access/callerAudience.js';
import { assistantCaller } from '../authenticateAssistant.js';
import type { ReaderGate } from '../../deployments/site/ReaderGate.js';
import { domainParams, pageBodySchema, searchBodySchema, searchHitSchema } from './searchSchemas.js';

/** What the search and page routes need: retrieval, and the per-key and per-address limits. */
export interface SearchRouteDeps {
  retriever: Retriever;
  rateLimit: RouteRateLimit[];
  /** Body cap in bytes. */
  bodyLimitBytes: number;
  /** Reader sign-in's gate: which sites have it on (absent: none). */
  readerGate?: ReaderGate;
}

const errors = {
  400: { description: 'Invalid body (every problem listed)', schema: errorBodySchema },
  401: { description: 'Missing or invalid assistant key (admin keys are refused here)', schema: errorBodySchema },
  403: { description: "A site of another project than the key's", schema: errorBodySchema },
  429: { description: 'Rate limit of the key or of the client address spent (Retry-After)', schema: errorBodySchema },
};

/** `POST /v1/search/{domain}` and `POST /v1/page/{domain}` in the hosted shapes, for assistant keys. */
export function searchRoutes(deps: SearchRouteDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/search/:domain',
      summary: "Search the live site's sections, ranked like the site's own search box; best first",
      tag: 'assistant',
      auth: 'assistant',
      params: domainParams,
      body: searchBodySchema,
      bodyLimitBytes: deps.bodyLimitBytes,
      rateLimit: deps.rateLimit,
      responses: {
        200: { description: 'Matching sections, best first', schema: z.array(searchHitSchema) },
        ...errors,
        404: { description: 'No site serves that domain', schema: errorBodySchema },
      },
      async handler(ctx, { body }) {
        ctx.set('Cache-Control', 'no-store');
        const { domain } = assistantCaller(ctx);
        ctx.body = await deps.retriever.search(domain, body, callerAudience(deps.readerGate, domain, body.filter?.groups));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/page/:domain',
      summary: "A page's Markdown copy from the live site",
      tag: 'assistant',
      auth: 'assistant',
      params: domainParams,
      body: pageBodySchema,
      bodyLimitBytes: deps.bodyLimitBytes,
      rateLimit: deps.rateLimit,
      responses: {
        200: { description: 'The page', schema: z.object({ path: z.string(), content: z.string().describe('Markdown') }) },
        ...errors,
        404: {
          description: 'No site serves that domain, or it has no such page (`message` as the hosted API, `error` as this one)',
          schema: errorBodySchema.extend({ message: z.string().optional() }),
        },
      },
      async handler(ctx, { body }) {
        const { domain } = assistantCaller(ctx);
        // A page the audience may not open is answered exactly as a missing one.
        const page = await deps.retriever.page(domain, body.path, callerAudience(deps.readerGate, domain, body.groups));
        ctx.set('Cache-Control', 'no-store');
        if (page) ctx.body = page;
        else {
          const message = `No page ${body.path} on this site`;
          ctx.status = 404;
          ctx.body = { error: message, message };
        }
      },
    }),
  ];
}
