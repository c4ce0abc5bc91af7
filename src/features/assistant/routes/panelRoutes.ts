import type { Context } from 'koa';
import { z } from 'zod';
import { defineRoute, type RouteRateLimit, type RouteSpec } from '../../../http/defineRoute.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';
import { AppError } from '../../../platform/AppError.js';
import type { SiteDirectory } from '../../control/SiteDirectory.js';
import type { AnswerDeps } from '../chat/AnswerDeps.js';
import { prepareAnswer } from '../chat/prepareAnswer.js';
import { uiMessageStreamV5 } from '../chat/stream/uiMessageStreamV5.js';
import { writeAnswerStream } from '../chat/stream/writeAnswerStream.js';
import { answerRequest } from './messageRoutes.js';
import { panelAudience } from '../access/panelAudience.js';
import type { ReaderGate } from '../../deployments/site/ReaderGate.js';
import type { MessageLimits } from './messageSchemas.js';
import { messageBodySchema } from './messageSchemas.js';

/** What the site's own "Ask AI" panel needs. */
export interface PanelRouteDeps {
  answers: AnswerDeps;
  sites: Pick<SiteDirectory, 'find'>;
  limits: MessageLimits & { retrievalPageSize: number };
  /** Per client address: the panel has no key, so the address is all there is to count. */
  rateLimit: RouteRateLimit[];
  bodyLimitBytes: number;
  /** Reader sign-in's gate, as the site handler asks it (absent: every site is open). */
  readerGate?: ReaderGate;
}

/**
 * The exported site's panel talks to the appliance that serves it, on the same origin and
 * without a key (a key in a bundle would be anyone's): `GET /_enclave/assistant` says whether
 * answers are on for the Host's site, `POST /_enclave/assistant/message` answers as `/v2` does.
 */
export function panelRoutes(deps: PanelRouteDeps): RouteSpec[] {
  const siteOf = (ctx: Context) => deps.sites.find(ctx.hostname.toLowerCase());
  return [
    defineRoute({
      method: 'GET',
      path: '/_enclave/assistant',
      summary: 'Whether the "Ask AI" panel should show on this site (the same-origin probe)',
      tag: 'assistant',
      auth: 'public',
      responses: { 200: { description: 'On or off', schema: z.object({ enabled: z.boolean() }) } },
      handler(ctx) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { enabled: Boolean(deps.answers.model() && siteOf(ctx)) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/_enclave/assistant/message',
      summary: "Ask the docs from the site's own panel (AI SDK 5 UI message stream)",
      tag: 'assistant',
      auth: 'public',
      body: messageBodySchema(deps.limits),
      bodyLimitBytes: deps.bodyLimitBytes,
      rateLimit: deps.rateLimit,
      responses: {
        200: { description: 'The answer, streamed', contentType: 'text/event-stream' },
        400: { description: 'Invalid body (every problem listed)', schema: errorBodySchema },
        404: { description: 'No site on this host, or no such thread on it', schema: errorBodySchema },
        429: { description: 'Too many questions from this address or from all readers (Retry-After)', schema: errorBodySchema },
        503: { description: 'The assistant is off', schema: errorBodySchema },
      },
      async handler(ctx, { body }) {
        const site = siteOf(ctx);
        if (!site) throw AppError.notFound('No docs site on this host');
        const domain = site.domain.toLowerCase();
        // The reader's own session decides, never the body's `filter.groups` (anyone can write those).
        const audience = panelAudience(deps.readerGate, domain, ctx.get('Cookie') || undefined);
        const request = answerRequest(
          { ...body, filter: body.filter && { ...body.filter, groups: undefined } },
          { domain, projectId: site.projectId, caller: 'web', audience },
          deps.limits.retrievalPageSize,
        );
        writeAnswerStream(ctx, await prepareAnswer(deps.answers, request), uiMessageStreamV5());
      },
    }),
  ];
}
