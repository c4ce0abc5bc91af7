import { isTrustworthyOrigin, OPENER_POLICY_HEADER } from '../http/isTrustworthyOrigin.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa, { type Context, type Middleware, type Next } from 'koa';
import helmet from 'koa-helmet';
import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { buildRouter } from '../http/buildRouter.js';
import type { RouteSpec } from '../http/defineRoute.js';
import { assignRequestId, createRequestIds } from '../http/middleware/assignRequestId.js';
import type { SiteRequestHandler } from '../http/SiteRequestHandler.js';
import { redactUrl } from '../platform/logging/redact.js';
import { handleErrors } from '../http/middleware/handleErrors.js';
import { logRequests } from '../http/middleware/logRequests.js';
import { isAdminApiPath, isAdminPath, isDashboardPath } from '../http/isAdminPath.js';
import { refuseForeignPageCalls } from '../http/middleware/refuseForeignPageCalls.js';
import { isWellFormedHost, rejectMalformedHost } from '../http/middleware/rejectMalformedHost.js';
import { healthRoutes } from './routes/healthRoutes.js';
import { openapiRoutes } from './routes/openapiRoutes.js';
import { AppError } from '../platform/AppError.js';
import type { Feature } from '../features/Feature.js';

/** Everything the HTTP app is built from; nothing is read from the environment here. */
export interface AppDeps {
  config: Config;
  logger: Logger;
  /** The features, in order: their routes, middleware, site handler and admin authentication. */
  features: Feature[];
  version: string;
  /**
   * What this app answers: `all` (one listener for everything), `site` (the docs site and the
   * reader endpoints, no admin API) or `admin` (the admin API, health and downloads, no site),
   * the last two when `server.adminListen` gives the admin API a listener of its own. The
   * dashboard is served only by an `admin` app, so never on an origin that serves docs (the
   * appliance starts one on `server.dashboardPort` when there is no adminListen).
   */
  surface?: AppSurface;
}

/** Which audiences one listener serves. */
export type AppSurface = 'all' | 'site' | 'admin';

/** The built app plus its full route list (for OpenAPI checks in tests). */
export interface EnclaveApp {
  app: Koa;
  routes: RouteSpec[];
}

/**
 * Builds the Koa application: admin API under /v1, /v2, /openapi.json and /_enclave/admin,
 * reader and machine endpoints under /_enclave and /bundles, the live docs sites everywhere
 * else. Site requests take a fast path in front of
 * Koa (see EnclaveKoa): they need none of the admin stack (error mapping to JSON, helmet per
 * request, CORS for feedback, the router), and Koa's context per request was a large share of
 * their cost. It never listens or starts timers.
 */
export function createApp(deps: AppDeps): EnclaveApp {
  const { config, logger } = deps;
  const siteHandler = deps.features.find((f) => f.siteHandler)?.siteHandler;
  const adminHosts = new Set(config.server.adminHosts.map((h) => h.toLowerCase()));
  const siteHosts = new Set(config.server.siteHosts.map((h) => h.toLowerCase()));
  const surface = deps.surface ?? 'all';
  const servesAdminApi = (host: string) => surface !== 'site' && (adminHosts.size === 0 || adminHosts.has(host));
  const requestIds = createRequestIds();
  const app = new EnclaveKoa({ proxy: config.server.trustProxy });
  app.silent = true; // errors are logged by handleErrors, with the request id
  if (siteHandler && surface !== 'admin')
    app.serveSite = siteFastPath({ handler: siteHandler, siteHosts, trustProxy: config.server.trustProxy, requestIds, logger });

  const routes: RouteSpec[] = [];
  routes.push(...healthRoutes({ dataDir: config.dataDir, features: deps.features }));
  routes.push(...openapiRoutes({ version: deps.version, allRoutes: () => routes }));
  // Docs pages run their authors' scripts: the dashboard (and the key it holds) is mounted only
  // where no docs share the origin, so this listener's router and /openapi.json both lack it.
  for (const feature of deps.features) routes.push(...feature.routes.filter((r) => surface === 'admin' || !isDashboardPath(r.path)));

  const router = buildRouter(routes, { ...keyChecks(deps.features), adminBodyBytes: config.limits.adminBodyBytes });

  app.use(assignRequestId(requestIds));
  app.use(logRequests({ logger }));
  app.use(handleErrors({ logger }));
  app.use(
    helmet({
      // Appliances are reached over plain HTTP on private networks: forcing HTTPS would lock users out.
      hsts: false,
      contentSecurityPolicy: { useDefaults: true, directives: { upgradeInsecureRequests: null } },
    }),
  );
  app.use(async function dropOpenerPolicyOverPlainHttp(ctx: Context, next: Next) {
    // Ignored there, with a console error on every dashboard page.
    if (!isTrustworthyOrigin(ctx.req, ctx.hostname, config.server.trustProxy)) ctx.remove(OPENER_POLICY_HEADER);
    await next();
  });
  for (const feature of deps.features) for (const middleware of feature.middleware ?? []) app.use(middleware);
  app.use(rejectMalformedHost({ trustProxy: config.server.trustProxy }));
  if (surface !== 'site') app.use(refuseForeignPageCalls({ servesDashboard: surface === 'admin' }));
  const routerMiddleware = router.routes();
  const allowedMethods = router.allowedMethods({ throw: false });
  app.use(async function dispatch(ctx: Context, next: Next) {
    // Site paths only get here when this listener or Host doesn't serve the site: a JSON 404.
    if (!isAdminPath(ctx.path)) return next();
    // Only the admin API is filtered by host (a miss falls to 404). The feedback widget, probes
    // and signed links answer on every name and listener: readers on a site host keep their
    // widget, a HEALTHCHECK by IP or localhost keeps working, and none of them needs a key.
    if (isAdminApiPath(ctx.path) && !servesAdminApi(ctx.hostname.toLowerCase())) return;
    // The router's context type is a refinement of Koa's; the runtime object is the same.
    const routed = ctx as unknown as Parameters<typeof routerMiddleware>[0];
    await routerMiddleware(routed, async () => {
      await allowedMethods(routed as unknown as Parameters<typeof allowedMethods>[0], next);
    });
  });
  return { app, routes };
}

/** The features' key checks: admin keys (control) and assistant keys (assistant). */
function keyChecks(features: Feature[]): { authenticate: Middleware; authenticateAssistant?: Middleware } {
  return {
    authenticate: features.find((f) => f.authenticate)?.authenticate ?? refuseAdminRoutes,
    authenticateAssistant: features.find((f) => f.authenticateAssistant)?.authenticateAssistant,
  };
}

/** Without a feature that authenticates admin keys (control), no admin route is open: fail closed. */
async function refuseAdminRoutes(): Promise<never> {
  throw AppError.unauthorized();
}

/** A request the fast path takes: true when it answers it, false to hand it to Koa. */
type SiteFastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Koa with a fast path in front of its request handling: `serveSite` answers docs-site requests
 * on the raw Node objects before Koa builds a context. Overriding callback() keeps every server
 * built from the app (listen, tests) on the same path.
 */
class EnclaveKoa extends Koa {
  serveSite: SiteFastPath | null = null;

  override callback(): ReturnType<Koa['callback']> {
    const koa = super.callback();
    const site = this.serveSite;
    if (!site) return koa;
    // The appliance listens with node:http only (listen.ts), so requests are HTTP/1 objects.
    return (req, res) => (site(req as IncomingMessage, res as ServerResponse) ? Promise.resolve() : koa(req, res));
  }
}

/**
 * Takes non-admin paths whose Host may see the site (server.siteHosts) to the site handler,
 * with a request id and, at level info, the same request log line the admin stack writes.
 */
function siteFastPath(options: {
  handler: SiteRequestHandler;
  siteHosts: Set<string>;
  trustProxy: boolean;
  requestIds: ReturnType<typeof createRequestIds>;
  logger: Logger;
}): SiteFastPath {
  const { handler, siteHosts, trustProxy, requestIds, logger } = options;
  return (req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (!path.startsWith('/') || isAdminPath(path)) return false;
    // A malformed Host goes to Koa, which answers it 400 (rejectMalformedHost).
    const rawHost = hostHeader(req, trustProxy);
    if (rawHost !== '' && !isWellFormedHost(rawHost)) return false;
    const host = hostName(rawHost);
    if (siteHosts.size > 0 && !siteHosts.has(host)) return false;
    const requestId = requestIds(req.headers['x-request-id']);
    if (logger.isLevelEnabled('info')) {
      const started = process.hrtime.bigint();
      res.once('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        logger.info(
          { requestId, method: req.method, url: redactUrl(url), status: res.statusCode, ms: Math.round(ms * 100) / 100 },
          'request',
        );
      });
    }
    const trustworthy = isTrustworthyOrigin(req, host, trustProxy);
    void handler({
      req,
      res,
      host,
      path,
      query: q < 0 ? '' : url.slice(q + 1),
      requestId,
      address: clientAddress(req, trustProxy),
      trustworthy,
    });
    return true;
  };
}

/** The Host the request names, as Koa reads it: the first X-Forwarded-Host value behind a trusted proxy. */
function hostHeader(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-host'] : undefined;
  return (typeof forwarded === 'string' && forwarded ? forwarded.split(',')[0].trim() : req.headers.host) ?? '';
}

/** The client's address as Koa's ctx.ip gives it: the first X-Forwarded-For entry behind a trusted proxy. */
function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
  const first = typeof forwarded === 'string' ? forwarded.split(',')[0].trim() : '';
  return first || req.socket.remoteAddress || '';
}

/** A Host value's name as Koa's ctx.hostname gives it: lower-case, without port. */
function hostName(raw: string): string {
  if (raw.startsWith('[')) return raw.slice(0, raw.indexOf(']') + 1).toLowerCase();
  const colon = raw.indexOf(':');
  return (colon < 0 ? raw : raw.slice(0, colon)).toLowerCase();
}
