import type { Logger } from 'pino';
import type { SiteRequest, SiteRequestHandler } from '../../../http/SiteRequestHandler.js';
import type { SiteDirectory } from '../../control/SiteDirectory.js';
import type { PreviewHosting } from '../../deployments/PreviewVersions.js';
import { hasReaderSignIn } from './hasReaderSignIn.js';
import { matchPreviewRequest } from './previewAddress.js';
import type { PreviewRepository } from './PreviewRepository.js';

/** The answer for a preview that is not there: plain, uncached, never indexed. */
const PLAIN_HEADERS = [
  'Content-Type',
  'text/plain; charset=utf-8',
  'Cache-Control',
  'no-cache',
  'Content-Security-Policy',
  "default-src 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options',
  'nosniff',
  'X-Robots-Tag',
  'noindex, nofollow',
];

/**
 * The site handler's preview hook (deployments' `sitePreview`): a request under
 * `/_preview/<slug>/` of a site's host, or on the preview host pattern, is answered from that
 * preview's version with the path below the prefix; false for every other request (the live
 * site answers it). A preview is reachable on its own site's host only (and on hosts that are
 * no site's, as the default site is), so one site's name never shows another site's drafts.
 */
export function servePreviewRequest(deps: {
  previews: PreviewRepository;
  hosting: PreviewHosting;
  sites: Pick<SiteDirectory, 'find'>;
  hostPattern: string | null;
  logger: Logger;
}): (request: SiteRequest) => ReturnType<SiteRequestHandler> | false {
  const answer = (request: SiteRequest): ReturnType<SiteRequestHandler> | false => {
    const target = matchPreviewRequest(request.host, request.path, deps.hostPattern);
    if (!target) return false;
    const preview = deps.previews.bySlug(target.slug);
    const hostSite = target.base ? deps.sites.find(request.host) : undefined;
    if (!preview || (hostSite && hostSite.domain !== preview.domain)) return plain(request, 404, 'No such preview\n');
    if (!target.base && hasReaderSignIn(deps.sites, preview.domain)) {
      // A reader's session cookie belongs to the site's host: a preview of a site with sign-in
      // is read under the site's own prefix, where the same sign-in and access map apply.
      const port = /:(\d+)$/.exec(request.req.headers.host ?? '')?.[1];
      const location = `//${preview.domain}${port ? `:${port}` : ''}/_preview/${preview.slug}${target.rest || '/'}`;
      return plain(request, 302, `Moved to ${location}\n`, ['Location', location]);
    }
    if (target.rest === '') {
      // Pages link relatively: the preview's root must end in a slash to resolve them.
      const location = `${target.base}/${request.query ? `?${request.query}` : ''}`;
      return plain(request, 301, `Moved to ${location}\n`, ['Location', location]);
    }
    if (!preview.versionName) {
      if (preview.state === 'failed') return plain(request, 404, 'This preview was never built: its build failed\n');
      return plain(request, 503, 'This preview is being built; try again in a moment\n', ['Retry-After', '10']);
    }
    return deps.hosting.serve(preview.versionName, { ...request, path: target.rest, base: target.base });
  };
  return (request) => {
    try {
      return answer(request);
    } catch (err) {
      // A site request must always be answered (SiteRequestHandler): never a thrown error.
      deps.logger.error({ err, requestId: request.requestId }, 'preview request failed');
      return request.res.headersSent ? undefined : plain(request, 500, 'Internal server error\n');
    }
  };
}

function plain(request: SiteRequest, status: number, text: string, extra: string[] = []): undefined {
  const headers = [...PLAIN_HEADERS, ...extra, 'Content-Length', String(Buffer.byteLength(text)), 'X-Request-Id', request.requestId];
  request.res.writeHead(status, headers);
  request.res.end(request.req.method === 'HEAD' ? undefined : text);
  return undefined;
}
