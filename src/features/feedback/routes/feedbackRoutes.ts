import type { ReaderMayOpen } from '../../deployments/site/readerMayOpenPage.js';
import { z } from 'zod';
import { checkFeedbackPath, feedbackSubmissionSchema } from '../feedbackSubmissionSchema.js';
import type { ActiveSite } from '../../deployments/ActiveSite.js';
import type { FeedbackOperations } from '../FeedbackOperations.js';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import type { RateLimiter } from '../../../http/RateLimiter.js';
import { allowedOriginSet, checkFeedbackOrigin } from './checkFeedbackOrigin.js';

/** What the collection route needs. */
export interface FeedbackRouteDeps {
  ops: FeedbackOperations;
  activeSite: ActiveSite;
  limiter: RateLimiter;
  bodyLimitBytes: number;
  allowedOrigins: readonly string[];
  /** Reader sign-in: may the request's reader open the page at `path` (`/guides/start`) of `host`'s site. */
  readerMayOpen?: ReaderMayOpen;
}

/** `POST /_enclave/feedback`: the served site's widget posts here (no admin key). */
export function feedbackRoutes(deps: FeedbackRouteDeps): RouteSpec[] {
  const allowed = allowedOriginSet(deps.allowedOrigins);
  return [
    defineRoute({
      method: 'POST',
      path: '/_enclave/feedback',
      summary: 'Record reader feedback for a page of the live site',
      tag: 'feedback',
      auth: 'public',
      body: feedbackSubmissionSchema(),
      checkRequest: (ctx, body) =>
        checkFeedbackPath(deps.activeSite, ctx.hostname.toLowerCase(), body, (path) =>
          deps.readerMayOpen ? deps.readerMayOpen(ctx.hostname.toLowerCase(), ctx.get('Cookie') || undefined, path) : true,
        ),
      bodyLimitBytes: deps.bodyLimitBytes,
      rateLimit: { limiter: deps.limiter, key: (ctx) => ctx.ip },
      responses: {
        201: { description: 'Stored durably', schema: z.object({ id: z.string() }) },
        400: { description: 'Invalid submission (every problem listed)' },
        403: { description: 'Posted from another site' },
        413: { description: 'Body too large' },
        429: { description: 'Too many posts from this client address, for this page, or from all clients together (Retry-After)' },
        503: { description: 'No docs site is live' },
        507: { description: 'The data volume is full or below its free-space floor; nothing was stored' },
      },
      async handler(ctx, { body }) {
        // Refuses other sites' posts; CORS headers for allowed origins come from allowFeedbackOrigins.
        checkFeedbackOrigin(ctx, allowed);
        const entry = await deps.ops.ingest(body, ctx.hostname.toLowerCase());
        ctx.set('Cache-Control', 'no-store');
        ctx.status = 201;
        ctx.body = { id: entry.id };
      },
    }),
  ];
}
