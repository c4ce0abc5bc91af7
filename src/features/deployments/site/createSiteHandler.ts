import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Context, Middleware } from 'koa';
import type { LiveSite } from '../LiveSite.js';
import type { FileVariant, ServedFile, SiteVersion } from '../SiteVersion.js';
import { acceptedEncodings } from './chooseEncoding.js';
import { resolveSitePath } from './resolveSitePath.js';
import { PLAIN_PAGE_POLICY, siteSecurityPolicy } from './siteSecurityPolicy.js';
import { UNAVAILABLE_PAGE } from './unavailablePage.js';

const EMPTY = Buffer.alloc(0);
/** The activation wrote every file itself, so a symlink here means tampering: never follow one. */
const READ_NO_SYMLINK = constants.O_RDONLY | constants.O_NOFOLLOW;
const NOT_FOUND_TEXT = 'Not found\n';

/**
 * The live docs site: answers every non-admin GET/HEAD from the active version's in-memory file
 * table (see resolveSitePath for the URL rules), with ETags and 304s, precompressed gzip/brotli
 * picked by Accept-Encoding, immutable caching for content-hashed assets, the site's own CSP,
 * `404.html` with status 404, and a 503 page while no version is active. A request holds the
 * version it started on until its body is sent, so a switch or a prune can't pull files away.
 */
export function createSiteHandler(live: LiveSite): Middleware {
  return async function siteHandler(ctx: Context): Promise<void> {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      sendText(ctx, 405, 'Method not allowed\n');
      return;
    }
    const version = live.version();
    if (!version) {
      ctx.set('Retry-After', '30');
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Content-Security-Policy', PLAIN_PAGE_POLICY);
      ctx.status = 503;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = UNAVAILABLE_PAGE;
      return;
    }
    const resolution = resolveSitePath(ctx.path);
    if (resolution.kind === 'bad') {
      sendText(ctx, 400, 'Bad request\n');
      return;
    }
    if (resolution.kind === 'candidates') {
      for (const candidate of resolution.candidates) {
        const file = version.file(candidate.file);
        if (!file) continue;
        if (candidate.redirectTo) {
          redirect(ctx, candidate.redirectTo);
          return;
        }
        await sendFile(ctx, version, file, 200);
        return;
      }
      const older = live.olderAsset(resolution.candidates[0].file);
      if (older) {
        await sendFile(ctx, older.version, older.file, 200);
        return;
      }
    }
    const notFoundPage = version.file('404.html');
    if (notFoundPage) await sendFile(ctx, version, notFoundPage, 404);
    else sendText(ctx, 404, NOT_FOUND_TEXT);
  };
}

async function sendFile(ctx: Context, version: SiteVersion, file: ServedFile, status: number): Promise<void> {
  // Headers go straight to the Node response: this is the hot path of the appliance, and Koa's
  // setters add type lookups and checks that the precomputed values don't need.
  const res = ctx.res;
  const accepts = file.br || file.gzip ? acceptedEncodings(ctx.req.headers['accept-encoding']) : null;
  let variant: FileVariant = file.identity;
  let encoding: string | null = null;
  if (accepts?.br && file.br) {
    variant = file.br;
    encoding = 'br';
  } else if (accepts?.gzip && file.gzip) {
    variant = file.gzip;
    encoding = 'gzip';
  }
  res.setHeader('Content-Security-Policy', (file.csp ??= siteSecurityPolicy(file.scriptHashes, { apiPlayground: file.apiPlayground })));
  res.setHeader('Cache-Control', status === 200 ? file.cacheControl : 'no-cache');
  if (file.br || file.gzip) res.setHeader('Vary', 'Accept-Encoding');
  if (status === 200) {
    res.setHeader('ETag', variant.etag);
    const ifNoneMatch = ctx.req.headers['if-none-match'];
    if (ifNoneMatch && matchesEtag(ifNoneMatch, variant.etag)) {
      ctx.status = 304;
      return;
    }
  }
  ctx.status = status;
  res.setHeader('Content-Type', file.contentType);
  if (encoding) res.setHeader('Content-Encoding', encoding);
  if (ctx.method === 'HEAD') {
    ctx.body = EMPTY;
    ctx.length = variant.size;
    return;
  }
  if (variant.body) {
    // Already in memory: nothing on disk is touched, so no reference on the version is needed.
    ctx.body = variant.body;
    return;
  }
  version.acquire();
  let released = false;
  const release = () => {
    if (!released) {
      released = true;
      version.release();
    }
  };
  try {
    const cached = await version.cachedBody(variant);
    if (cached) {
      ctx.body = cached;
      release();
      return;
    }
    const handle = await open(variant.absPath, READ_NO_SYMLINK);
    const stream = handle.createReadStream({ highWaterMark: 256 * 1024 });
    stream.once('close', release);
    ctx.body = stream;
    ctx.length = variant.size;
  } catch (err) {
    release();
    throw err;
  }
}

function redirect(ctx: Context, urlPath: string): void {
  const encoded = urlPath
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
  ctx.status = 301;
  ctx.set('Location', ctx.querystring ? `${encoded}?${ctx.querystring}` : encoded);
  ctx.set('Cache-Control', 'no-cache');
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = `Moved to ${encoded}\n`;
}

function sendText(ctx: Context, status: number, text: string): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-cache');
  ctx.set('Content-Security-Policy', PLAIN_PAGE_POLICY);
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = text;
}

/** If-None-Match with weak comparison (RFC 9110 §13.1.2): `*`, or any listed tag equal ignoring `W/`. */
function matchesEtag(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return (t.startsWith('W/') ? t.slice(2) : t) === etag;
  });
}
