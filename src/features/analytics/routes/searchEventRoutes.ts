import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import type { RateLimiter } from '../../../http/RateLimiter.js';
import { AppError } from '../../../platform/AppError.js';
import type { AnalyticsReports } from '../AnalyticsReports.js';

/** Where the search box posts its beacons. */
export const SEARCH_EVENTS_PATH = '/_enclave/search-events';

const query = z.string().trim().min(1).max(200);
/** What the search box beacons: a settled query with its result count, or the result opened. */
const searchEventBody = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('search'), query, results: z.number().int().min(0).max(10_000) }),
  z.strictObject({ type: z.literal('click'), query, path: z.string().min(1).max(1024).startsWith('/') }),
]);

/** True when there is no Origin (not a browser) or it names the host the request came to. */
function isSameOrigin(origin: string, host: string): boolean {
  if (!origin) return true;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/** `POST /_enclave/search-events`: the exported site's search box reports here (no key, same origin only). */
export function searchEventRoutes(deps: { reports: AnalyticsReports; limiter: RateLimiter; bodyLimitBytes: number }): RouteSpec[] {
  return [
    defineRoute({
      method: 'POST',
      path: SEARCH_EVENTS_PATH,
      summary: 'Record a search of the live site, or the result a reader opened',
      tag: 'analytics',
      auth: 'public',
      body: searchEventBody,
      bodyLimitBytes: deps.bodyLimitBytes,
      rateLimit: { limiter: deps.limiter, key: (ctx) => ctx.ip },
      responses: {
        204: { description: 'Recorded (or collection is off)' },
        400: { description: 'Not a search event' },
        403: { description: 'Sent from another site' },
        429: { description: 'Too many events from this address or from all clients (Retry-After)' },
        507: { description: 'The data volume is below its free-space floor; nothing was stored' },
      },
      async handler(ctx, { body }) {
        // Beacons are same-origin by design: a page elsewhere has no business adding searches.
        if (!isSameOrigin(ctx.get('Origin'), ctx.host))
          throw AppError.forbidden('Search events are accepted from the docs site itself only');
        await deps.reports.recordSearchEvent(body, ctx.hostname.toLowerCase());
        ctx.set('Cache-Control', 'no-store');
        ctx.status = 204;
      },
    }),
  ];
}
