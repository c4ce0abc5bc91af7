import type { IncomingMessage, ServerResponse } from 'node:http';

/** A request for the docs site, as the app's fast path hands it over (no Koa context). */
export interface SiteRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The Host's name, lower-case, without port. */
  host: string;
  /** The raw URL path (still percent-encoded) and the query string without `?` ('' when none). */
  path: string;
  query: string;
  requestId: string;
  /** The client's address (the first X-Forwarded-For entry behind a trusted proxy, as Koa's ctx.ip). */
  address: string;
  /** False when the page is not a secure context for the browser (see isTrustworthyOrigin); absent: it is. */
  trustworthy?: boolean;
  /**
   * The URL path the site is mounted under, without a trailing slash (a preview's
   * `/_preview/<slug>`), when `path` is relative to it; absent: the site is at the root.
   */
  base?: string;
}

/**
 * Answers a docs-site request on the raw Node response. The site is the hot path of the
 * appliance, so it skips Koa's context, the admin middleware and per-request header work.
 * It must answer every request itself and never throw or reject; it returns a promise only
 * while an answer is still in progress (none when it answered synchronously).
 */
export type SiteRequestHandler = (request: SiteRequest) => Promise<void> | undefined;
