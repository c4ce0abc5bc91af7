// size: the site server's request path with its helpers; kept together because it is the hot path
import { OPENER_POLICY_HEADER } from '../../../http/isTrustworthyOrigin.js';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { AppError } from '../../../platform/AppError.js';
import { matchesEtag } from '../../../http/matchesEtag.js';
import { parseByteRange } from '../../../http/parseByteRange.js';
import type { SiteRequest, SiteRequestHandler } from '../../../http/SiteRequestHandler.js';
import type { LiveSite } from '../LiveSite.js';
import type { FileVariant, ServedFile, SiteVersion } from '../SiteVersion.js';
import { acceptedEncodings } from './chooseEncoding.js';
import { openVersionFile } from './openVersionFile.js';
import type { PageServedHook } from './PageServedHook.js';
import { resolveSitePath } from './resolveSitePath.js';
import type { ReaderAtGate, ReaderGate } from './ReaderGate.js';
import { fileForReader, type ReaderView } from './readerView.js';
import { isDocumentType, SITE_SECURITY_HEADERS, securityHeadersFor } from './siteSecurityHeaders.js';
import { PLAIN_PAGE_POLICY, siteSecurityPolicy } from './siteSecurityPolicy.js';
import { COMING_SOON_RETRY_SECONDS, comingSoonPage, UNAVAILABLE_PAGE } from './unavailablePage.js';

/** What the site handler is built with besides the live sites. */
export interface SiteHandlerOptions {
  logger: Logger;
  /** Told of every file a GET got with 200 or 304 (page-view counting hooks in here). */
  onPageServed?: PageServedHook;
  /**
   * The value of X-Enclave-Site, sent with every file: `1`, or `search-events` when the search
   * box should report searches to /_enclave/search-events (analytics collects). Null sends no
   * mark, so the page's feedback, Ask AI and search reporting stay off (previews).
   */
  siteMark?: string | null;
  /** Headers sent with every page besides the mark (a preview's `X-Robots-Tag`). */
  pageHeaders?: readonly string[];
  /** Origins every "Try it" page may also reach, beyond its spec's servers (`staticExport.tryItOrigins`). */
  tryItOrigins?: readonly string[];
  /** Reader sign-in: who the reader is on a site that has it (absent: every site is open). */
  readerGate?: ReaderGate;
}

/** What every page answer shares: the extra headers, and the origins "Try it" pages may also reach. */
interface PageExtras {
  headers: string[];
  tryItOrigins: readonly string[];
}

/** Where the handler finds the live version for a request's host. */
export interface LiveSites {
  forHost(host: string): { live: LiveSite };
}

/** What a request path comes to within one version (memoized per version: it never changes there). */
type Resolved =
  | { kind: 'file'; file: ServedFile }
  | { kind: 'redirect'; to: string }
  | { kind: 'missing'; firstCandidate: string | null }
  | { kind: 'bad' };

/**
 * The live docs sites: answers every non-admin GET/HEAD from the in-memory file table of the
 * version live for the request's Host (see resolveSitePath for the URL rules), with ETags and
 * 304s, single byte ranges, precompressed gzip/brotli picked by Accept-Encoding, immutable
 * caching for content-hashed assets, the site's own CSP, `404.html` with status 404, and a 503
 * page while no version is active. Response headers are built once per file and reused, bodies
 * of small files come from memory, and the path work is memoized per version, so a request
 * costs little more than Node's own HTTP handling. A request holds the version it started on
 * until its body is sent, so a switch or a prune can't pull files away.
 */
// size: the site server's request path, kept in one place because it is the hot path (a few checks and a send per request)
export function createSiteHandler(sites: LiveSites, options: SiteHandlerOptions): SiteRequestHandler {
  const { onPageServed, logger } = options;
  // X-Enclave-Site marks pages this appliance serves: the bundle's feedback widget reads it from a
  // same-origin HEAD and probes /_enclave/health only then, so other static hosts see no 404; the
  // search box reads whether to report searches from its value. One header carries both.
  const mark = options.siteMark === null ? [] : ['X-Enclave-Site', options.siteMark ?? '1'];
  const pageHeaders: PageExtras = { headers: [...mark, ...(options.pageHeaders ?? [])], tryItOrigins: options.tryItOrigins ?? [] };
  const fail = (request: SiteRequest, err: unknown) => {
    // The site never answers with internals: log, then a bare 500 (or a cut connection mid-body).
    logger.error({ err, requestId: request.requestId, url: request.req.url }, 'site request failed');
    if (!request.res.headersSent) sendText(request, 500, 'Internal server error\n');
    else request.res.destroy();
  };
  const served = (request: SiteRequest, live: LiveSite, version: SiteVersion, file: ServedFile, status: number) => {
    if (!onPageServed || request.req.method !== 'GET' || (status !== 200 && status !== 304)) return;
    try {
      const domain = live.current()?.domain ?? version.domain;
      onPageServed({
        domain,
        version: version.version,
        file: file.path,
        userAgent: request.req.headers['user-agent'],
        address: request.address,
      });
    } catch (err) {
      // Counting a view must never cost the reader the page.
      logger.warn({ err, requestId: request.requestId }, 'page-served hook failed');
    }
  };
  // Synchronous whenever the answer is in memory (the common case): no promise per request.
  function answer(request: SiteRequest): Promise<void> | undefined {
    if (request.req.method !== 'GET' && request.req.method !== 'HEAD') {
      sendText(request, 405, 'Method not allowed\n', ['Allow', 'GET, HEAD']);
      return;
    }
    const live = sites.forHost(request.host).live;
    const version = live.version();
    if (!version) {
      const coming = live.firstVersionComing();
      send(
        request,
        503,
        [
          'Content-Type',
          'text/html; charset=utf-8',
          'Cache-Control',
          'no-store',
          'Retry-After',
          coming ? String(COMING_SOON_RETRY_SECONDS) : '30',
          'Content-Security-Policy',
          PLAIN_PAGE_POLICY,
          ...SITE_SECURITY_HEADERS,
        ],
        coming ? comingSoonPage(coming) : UNAVAILABLE_PAGE,
      );
      return;
    }
    const resolved = version.memo(request.path, (path) => resolveIn(version, path));
    const gate = options.readerGate?.(version.domain, request.req.headers.cookie) ?? null;
    if (gate) return answerReader(request, live, version, resolved, gate);
    if (resolved.kind === 'file') {
      const status = sendFile(request, version, resolved.file, 200, pageHeaders);
      if (typeof status === 'number') served(request, live, version, resolved.file, status);
      else return status.then((sent) => served(request, live, version, resolved.file, sent));
      return;
    }
    if (resolved.kind === 'redirect') {
      const to = (request.base ?? '') + resolved.to;
      const location = request.query ? `${to}?${request.query}` : to;
      sendText(request, 301, `Moved to ${to}\n`, ['Location', location]);
      return;
    }
    if (resolved.kind === 'bad') {
      sendText(request, 400, 'Bad request\n');
      return;
    }
    const older = resolved.firstCandidate === null ? null : live.olderAsset(resolved.firstCandidate);
    if (older) return settle(sendFile(request, older.version, older.file, 200, pageHeaders));
    const notFoundPage = version.file('404.html');
    if (notFoundPage) return settle(sendFile(request, version, notFoundPage, 404, pageHeaders));
    sendText(request, 404, 'Not found\n');
    return;
  }
  /**
   * A request to a site with reader sign-in: a file showing a page the reader may not open is
   * answered exactly as a missing one (a redirect to such a page too), and a reader not signed
   * in who asks for a page that is missing or not for them goes to sign-in, whichever it is.
   * Synchronous, like the open path, once the reader's view of the file is known (fileForReader
   * memoises it): a signed-in page view then costs no promise.
   */
  function answerReader(
    request: SiteRequest,
    live: LiveSite,
    version: SiteVersion,
    resolved: Resolved,
    gate: ReaderAtGate,
  ): Promise<void> | undefined {
    if (resolved.kind === 'redirect') {
      const to = resolved.to;
      const behind = version.memo(to, (path) => resolveIn(version, path));
      if (behind.kind !== 'file') return redirectReader(request, to);
      return whenKnown(fileForReader(version, behind.file, gate.reader), (view) =>
        view !== null ? redirectReader(request, to) : answerReaderMissing(request, version, gate),
      );
    }
    if (resolved.kind === 'bad') return sendText(request, 400, 'Bad request\n');
    if (resolved.kind === 'file') {
      // The common case, a page of the live version: no object or closure per request once the view is known.
      const view = fileForReader(version, resolved.file, gate.reader);
      if (view instanceof Promise) return view.then((file) => answerReaderFile(request, live, version, version, file, gate));
      return answerReaderFile(request, live, version, version, view, gate);
    }
    const older = resolved.firstCandidate === null ? null : live.olderAsset(resolved.firstCandidate);
    if (!older) return answerReaderMissing(request, version, gate);
    return whenKnown(fileForReader(older.version, older.file, gate.reader), (file) =>
      answerReaderFile(request, live, version, older.version, file, gate),
    );
  }
  /** Sends a reader's view `file` of a file of `from` (the live `version` or an older one holding an asset), or answers it as missing. */
  function answerReaderFile(
    request: SiteRequest,
    live: LiveSite,
    version: SiteVersion,
    from: SiteVersion,
    file: ServedFile | null,
    gate: ReaderAtGate,
  ): Promise<void> | undefined {
    if (!file) return answerReaderMissing(request, version, gate);
    const status = sendFile(request, from, file, 200, pageHeaders);
    if (from !== version) return settle(status);
    if (typeof status !== 'number') return status.then((sent) => served(request, live, version, file, sent));
    served(request, live, version, file, status);
    return undefined;
  }
  /** A page missing or not for the reader: sign-in for a reader not signed in who wanted a page, else the 404 page as they may see it. */
  function answerReaderMissing(request: SiteRequest, version: SiteVersion, gate: ReaderAtGate): Promise<void> | undefined {
    if (gate.reader === null && looksLikePage(request.path)) {
      const path = (request.base ?? '') + request.path;
      const wanted = request.query ? `${path}?${request.query}` : path;
      return sendText(request, 302, 'Sign in to read this site\n', ['Location', gate.signInPath(wanted), 'Vary', 'Cookie']);
    }
    const notFoundPage = version.file('404.html');
    if (!notFoundPage) return sendText(request, 404, 'Not found\n', ['Vary', 'Cookie']);
    return whenKnown(fileForReader(version, notFoundPage, gate.reader), (view) =>
      view ? settle(sendFile(request, version, view, 404, pageHeaders)) : sendText(request, 404, 'Not found\n', ['Vary', 'Cookie']),
    );
  }
  return function siteHandler(request: SiteRequest): Promise<void> | undefined {
    try {
      return answer(request)?.catch((err) => fail(request, err));
    } catch (err) {
      fail(request, err);
      return undefined;
    }
  };
}

/** A 301 to `to` (a path within the site) that depends on who asks. */
function redirectReader(request: SiteRequest, to: string): undefined {
  const target = (request.base ?? '') + to;
  const location = request.query ? `${target}?${request.query}` : target;
  sendText(request, 301, `Moved to ${target}\n`, ['Location', location, 'Vary', 'Cookie']);
  return undefined;
}

/** `then` of a reader's view of a file: at once when it is known, else once it is built. */
function whenKnown(view: ReaderView, then: (file: ServedFile | null) => Promise<void> | undefined): Promise<void> | undefined {
  return view instanceof Promise ? view.then(then) : then(view);
}

/** A status, or the promise of one, as a completion without a value. */
function settle(status: number | Promise<number>): Promise<void> | undefined {
  return typeof status === 'number' ? undefined : status.then(() => {});
}

function resolveIn(version: SiteVersion, path: string): Resolved {
  const resolution = resolveSitePath(path);
  if (resolution.kind === 'bad') return { kind: 'bad' };
  if (resolution.kind === 'hidden') return { kind: 'missing', firstCandidate: null };
  for (const candidate of resolution.candidates) {
    const file = version.file(candidate.file);
    if (!file) continue;
    if (candidate.redirectTo) return { kind: 'redirect', to: encodePath(candidate.redirectTo) };
    return { kind: 'file', file };
  }
  return { kind: 'missing', firstCandidate: resolution.candidates[0].file };
}

/** Answers with `file` (status 200 or 404): the status sent, at once when the bytes are in memory, else once streaming began. */
function sendFile(
  request: SiteRequest,
  version: SiteVersion,
  file: ServedFile,
  status: 200 | 404,
  pageHeaders: PageExtras,
): number | Promise<number> {
  const { req } = request;
  const accepts = file.br || file.gzip ? acceptedEncodings(req.headers['accept-encoding']) : null;
  const rangeHeader = status === 200 ? req.headers.range : undefined;
  let variant: FileVariant = file.identity;
  // A range is served from the identity bytes: ranges of an encoding would confuse caches.
  if (!rangeHeader && accepts?.br && file.br) variant = file.br;
  else if (!rangeHeader && accepts?.gzip && file.gzip) variant = file.gzip;
  const headers = (variant.headers ??= {});
  if (status === 200) {
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch && matchesEtag(ifNoneMatch, variant.etag)) {
      send(request, 304, (headers.notModified ??= responseHeaders(file, variant, 304, pageHeaders)));
      return 304;
    }
  }
  const base =
    status === 200
      ? (headers.ok ??= responseHeaders(file, variant, 200, pageHeaders))
      : (headers.notFound ??= responseHeaders(file, variant, 404, pageHeaders));
  let range: { start: number; end: number } | null = null;
  if (rangeHeader) {
    const ifRange = req.headers['if-range'];
    const parsed = !ifRange || String(ifRange).trim() === variant.etag ? parseByteRange(rangeHeader, variant.size) : null;
    if (parsed === 'unsatisfiable') {
      sendText(request, 416, 'Range not satisfiable\n', ['Content-Range', `bytes */${variant.size}`]);
      return 416;
    }
    range = parsed;
  }
  const sent = range
    ? withHeaders(base, 'Content-Length', String(range.end - range.start + 1), [
        'Content-Range',
        `bytes ${range.start}-${range.end}/${variant.size}`,
      ])
    : base;
  const code = range ? 206 : status;
  if (req.method === 'HEAD') {
    send(request, code, sent);
    return code;
  }
  if (variant.body) {
    // Already in memory: nothing on disk is touched, so no reference on the version is needed.
    send(request, code, sent, range ? variant.body.subarray(range.start, range.end + 1) : variant.body);
    return code;
  }
  return sendFromDisk(request, version, variant, code, sent, range);
}

/** Reads a body not (yet) in memory: into the cache when small, else streamed; the version is held meanwhile. */
async function sendFromDisk(
  request: SiteRequest,
  version: SiteVersion,
  variant: FileVariant,
  code: number,
  sent: string[],
  range: { start: number; end: number } | null,
): Promise<number> {
  const { res } = request;
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
      release();
      send(request, code, sent, range ? cached.subarray(range.start, range.end + 1) : cached);
      return code;
    }
    const handle = await openVersionFile(variant.absPath);
    const stream = handle.createReadStream({ highWaterMark: 256 * 1024, ...(range ? { start: range.start, end: range.end } : {}) });
    stream.once('close', release);
    stream.once('error', () => res.destroy());
    res.once('close', () => stream.destroy());
    writeHead(request, code, sent);
    stream.pipe(res);
    return code;
  } catch (err) {
    release();
    if (!(err instanceof AppError && err.status === 404)) throw err;
    // Not a plain file of the version (a symlink was put in its path): answer as if missing.
    sendText(request, 404, 'Not found\n');
    return 404;
  }
}

/**
 * The headers of `file` answered through `variant` with `status`, built once and reused for every
 * such answer. Documents (pages, SVG) get the CSP, the document headers and `pageHeaders`; other
 * files only what acts on a loaded resource (see securityHeadersFor). A page that declares its
 * referrer and DNS-prefetch policies in its head gets no header repeating them.
 */
function responseHeaders(file: ServedFile, variant: FileVariant, status: 200 | 304 | 404, pageHeaders: PageExtras): string[] {
  const document = isDocumentType(file.contentType);
  const headers = ['Cache-Control', status === 404 ? 'no-cache' : file.cacheControl];
  if (document) {
    // A "Try it" page (so marked in the manifest) may reach its spec's servers and the admin's extra origins.
    const connect = file.tryItOrigins && [...file.tryItOrigins, ...pageHeaders.tryItOrigins];
    headers.push('Content-Security-Policy', (file.csp ??= siteSecurityPolicy(file.scriptHashes, { connect })));
  }
  // One Vary line naming both: each header line costs every response's serialisation and every
  // client's parser (a reader's page used to carry two, measurably dearer under load).
  const vary =
    file.br || file.gzip ? (file.readerPrivate ? 'Accept-Encoding, Cookie' : 'Accept-Encoding') : file.readerPrivate ? 'Cookie' : null;
  if (vary) headers.push('Vary', vary);
  if (status !== 404) headers.push('ETag', variant.etag);
  if (status !== 304) {
    headers.push('Content-Type', file.contentType, 'Content-Length', String(variant.size));
    if (variant !== file.identity) headers.push('Content-Encoding', variant === file.br ? 'br' : 'gzip');
    // Ranges are answered on every file; they are advertised where resuming matters (not on pages).
    else if (status === 200 && !document) headers.push('Accept-Ranges', 'bytes');
  }
  return [
    ...headers,
    ...securityHeadersFor(file.contentType, file.headPolicies),
    ...(document ? pageHeaders.headers : []),
    ...REQUEST_ID_SLOT,
  ];
}

/** `headers` with one header's value replaced and others appended (a fresh array; the shared one is never changed). */
function withHeaders(headers: string[], name: string, value: string, extra: string[]): string[] {
  const out = headers.slice(0, -REQUEST_ID_SLOT.length);
  const at = out.indexOf(name);
  if (at >= 0) out[at + 1] = value;
  out.push(...extra, ...REQUEST_ID_SLOT);
  return out;
}

function sendText(request: SiteRequest, status: number, text: string, extra: string[] = []): undefined {
  send(
    request,
    status,
    [
      'Content-Type',
      'text/plain; charset=utf-8',
      'Cache-Control',
      'no-cache',
      'Content-Security-Policy',
      PLAIN_PAGE_POLICY,
      ...SITE_SECURITY_HEADERS,
      ...extra,
    ],
    text,
  );
}

/** The last pair of every header array: X-Request-Id, its value set per response by writeHead. */
const REQUEST_ID_SLOT = ['X-Request-Id', ''];

/** Writes status and headers (plus the request id) and ends the response with `body`; a HEAD gets the headers only. File headers carry their length; a text body's is added here. */
function send(request: SiteRequest, status: number, headers: string[], body?: string | Buffer): void {
  const { req, res } = request;
  if (typeof body === 'string') headers = [...headers, 'Content-Length', String(Buffer.byteLength(body)), ...REQUEST_ID_SLOT];
  else if (headers[headers.length - 2] !== 'X-Request-Id') headers = [...headers, ...REQUEST_ID_SLOT];
  writeHead(request, status, headers);
  if (req.method === 'HEAD' || status === 304) res.end();
  else res.end(body);
}

function writeHead(request: SiteRequest, status: number, headers: string[]): void {
  const res: ServerResponse = request.res;
  // One flat array in a single writeHead is Node's fast path for headers. Every array ends with
  // the X-Request-Id slot, filled just before the (synchronous) serialization: shared arrays
  // are reused without a copy per request.
  headers[headers.length - 1] = request.requestId;
  res.writeHead(status, request.trustworthy === false ? withoutOpenerPolicy(headers) : headers);
}

/**
 * `headers` without Cross-Origin-Opener-Policy, for a page that is not a secure context: the
 * browser would ignore it and log an error on every page. A copy only when it is there.
 */
function withoutOpenerPolicy(headers: string[]): string[] {
  const at = headers.indexOf(OPENER_POLICY_HEADER);
  return at < 0 || at % 2 === 1 ? headers : [...headers.slice(0, at), ...headers.slice(at + 2)];
}

/** A path a reader would follow to a page (no extension, `.html`, `.md` or a folder), not an asset's. */
function looksLikePage(rawPath: string): boolean {
  const last = rawPath.slice(rawPath.lastIndexOf('/') + 1);
  return !last.includes('.') || /\.(?:html|md)$/i.test(last);
}

function encodePath(urlPath: string): string {
  return urlPath
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}
