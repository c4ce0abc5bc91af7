import { z } from 'zod';
import { bundleLinkPath, verifyBundleLink } from '../../../bundle/links/bundleLinks.js';
import type { SigningKeyring } from '../../../platform/SigningKeyring.js';
import { AppError } from '../../../platform/AppError.js';
import type { Clock } from '../../../platform/Clock.js';
import type { ExportOperations } from '../createExportOperations.js';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import { sendBundleFile } from './sendBundleFile.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';

/** What the download route works with. */
export interface BundleDownloadDeps {
  exports: Pick<ExportOperations, 'bundleFile'>;
  keyring: SigningKeyring;
  clock: Clock;
}

// A malformed or repeated parameter is treated like a missing one: the request is refused as a
// bad signature (403), the answer every other tampering gets, rather than a validation 400.
const signed = (description: string) => z.string().optional().catch(undefined).describe(description);

const downloadQuery = z.object({
  expires: signed('Expiry of the link, Unix seconds (required)'),
  kid: signed('Id of the signing key (required)'),
  sig: signed('HMAC-SHA256 signature, base64url (required)'),
});

const downloadParams = z.strictObject({
  jobId: z.string().describe('Export job id'),
  file: z.string().describe('Bundle file name'),
});

/** `GET|HEAD /bundles/:jobId/:file`: downloads authorised by an HMAC-signed, expiring link, not a key. */
export function bundleDownloadRoutes(deps: BundleDownloadDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/bundles/:jobId/:file',
      summary: 'Download a bundle zip with a signed link (HEAD allowed; Range for resuming)',
      tag: 'static-export',
      auth: 'public',
      params: downloadParams,
      query: downloadQuery,
      responses: {
        200: { description: 'The zip', schema: z.file(), contentType: 'application/zip' },
        206: { description: 'The requested byte range of the zip', schema: z.file(), contentType: 'application/zip' },
        304: { description: 'Not modified (If-None-Match)' },
        403: {
          description: '`link expired`, `link retired` (its signing key was retired) or `invalid signature`',
          schema: errorBodySchema,
        },
        404: { description: 'No such bundle (the link was valid)', schema: errorBodySchema },
        410: { description: 'The bundle file is damaged on the server (its size changed); export again', schema: errorBodySchema },
        416: { description: 'Range not satisfiable', schema: errorBodySchema },
      },
      async handler(ctx, { params, query }) {
        const check = verifyBundleLink(
          deps.keyring,
          { method: ctx.method, path: bundleLinkPath(params.jobId, params.file), ...query },
          deps.clock.now(),
        );
        if (!check.ok) throw AppError.forbidden(check.reason);
        const bundle = deps.exports.bundleFile(params.jobId, params.file);
        if (!bundle) throw AppError.notFound('Bundle not found');
        await sendBundleFile(ctx, { path: bundle.path, sha256: bundle.sha256, sizeBytes: bundle.sizeBytes, downloadName: bundle.file });
      },
    }),
  ];
}
