import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';
import type { SiteDirectory } from '../../control/SiteDirectory.js';
import { acceptGitWebhook } from '../acceptGitWebhook.js';
import type { GitSourceSync } from '../GitSourceSync.js';
import { readRawBody } from '../readRawBody.js';

/** Push payloads are small; GitLab's largest (many commits) stay well under this. */
const WEBHOOK_BODY_BYTES = 1024 * 1024;

const outcomeSchema = z.union([
  z.object({ statusId: z.string().describe('The queued update: GET /v1/project/update-status/{statusId}') }),
  z.object({ ignored: z.string().describe('Why nothing was done (another branch, a ping, a tag)') }),
]);

/** The push-to-live webhook, one URL per site, for Gitea/Forgejo, GitLab, GitHub Enterprise and Bitbucket Server. */
export function gitWebhookRoutes(deps: { sites: SiteDirectory; sync: GitSourceSync }): RouteSpec[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/_enclave/git-webhook/:domain',
      summary: "Push webhook of a site's git source",
      tag: 'sources',
      auth: 'public',
      params: z.strictObject({ domain: z.string().min(1).max(253) }),
      responses: {
        200: { description: 'Verified, nothing to do', schema: outcomeSchema },
        202: { description: 'A push to the deployment branch: an update is queued', schema: outcomeSchema },
        400: { description: 'The body is not JSON', schema: errorBodySchema },
        401: { description: 'Signature or token does not match the webhook secret', schema: errorBodySchema },
        403: { description: 'The site has no webhook secret configured', schema: errorBodySchema },
        404: { description: 'No site with a git source has this domain', schema: errorBodySchema },
        413: { description: 'Body over 1 MiB', schema: errorBodySchema },
      },
      async handler(ctx, { params }) {
        const body = await readRawBody(ctx.req, WEBHOOK_BODY_BYTES);
        const outcome = await acceptGitWebhook(deps, { domain: params.domain, headers: ctx.headers, body });
        ctx.status = 'statusId' in outcome ? 202 : 200;
        ctx.body = outcome;
      },
    }),
  ];
}
