import Koa, { type Context, type Next } from 'koa';
import helmet from 'koa-helmet';
import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import type { Clock } from '../platform/Clock.js';
import { buildRouter } from '../http/buildRouter.js';
import type { RouteSpec } from '../http/defineRoute.js';
import { allowFeedbackOrigins } from '../features/feedback/allowFeedbackOrigins.js';
import { assignRequestId } from '../http/middleware/assignRequestId.js';
import { handleErrors } from '../http/middleware/handleErrors.js';
import { logRequests } from '../http/middleware/logRequests.js';
import { isAdminPath } from '../http/isAdminPath.js';
import { healthRoutes } from './routes/healthRoutes.js';
import { openapiRoutes } from './routes/openapiRoutes.js';
import { projectRoutes } from '../features/control/routes/projectRoutes.js';
import { authenticateAdmin } from '../features/control/authenticateAdmin.js';
import type { Feature } from '../features/Feature.js';
import type { ControlStore } from '../features/control/ControlStore.js';

/** Everything the HTTP app is built from; nothing is read from the environment here. */
export interface AppDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  control: ControlStore;
  features: Feature[];
  version: string;
}

/** The built app plus its full route list (for OpenAPI checks in tests). */
export interface EnclaveApp {
  app: Koa;
  routes: RouteSpec[];
}

/**
 * Builds the Koa application: admin API under /v1, /v2, /bundles, /_enclave and
 * /openapi.json; the live docs site everywhere else. It never listens or starts timers.
 */
export function createApp(deps: AppDeps): EnclaveApp {
  const { config, logger } = deps;
  const app = new Koa({ proxy: config.server.trustProxy });
  app.silent = true; // errors are logged by handleErrors, with the request id

  const routes: RouteSpec[] = [];
  routes.push(...healthRoutes({ dataDir: config.dataDir, features: deps.features }));
  routes.push(...openapiRoutes({ version: deps.version, allRoutes: () => routes }));
  routes.push(...projectRoutes({ control: deps.control }));
  for (const feature of deps.features) routes.push(...feature.routes);

  const router = buildRouter(routes, {
    authenticate: authenticateAdmin({ keys: deps.control.keys, clock: deps.clock, logger }),
    adminBodyBytes: config.limits.adminBodyBytes,
  });
  const siteHandler = deps.features.find((f) => f.siteHandler)?.siteHandler;
  const adminHosts = new Set(config.server.adminHosts.map((h) => h.toLowerCase()));
  const siteHosts = new Set(config.server.siteHosts.map((h) => h.toLowerCase()));

  app.use(assignRequestId());
  app.use(logRequests({ logger }));
  app.use(handleErrors({ logger }));
  app.use(
    helmet({
      // Appliances are reached over plain HTTP on private networks: forcing HTTPS would lock users out.
      hsts: false,
      contentSecurityPolicy: { useDefaults: true, directives: { upgradeInsecureRequests: null } },
    }),
  );
  app.use(allowFeedbackOrigins(config.feedback.allowedOrigins));
  const routerMiddleware = router.routes();
  const allowedMethods = router.allowedMethods({ throw: false });
  app.use(async function dispatch(ctx: Context, next: Next) {
    const host = ctx.hostname.toLowerCase();
    if (isAdminPath(ctx.path)) {
      if (adminHosts.size > 0 && !adminHosts.has(host)) return; // falls to 404
      // The router's context type is a refinement of Koa's; the runtime object is the same.
      const routed = ctx as unknown as Parameters<typeof routerMiddleware>[0];
      await routerMiddleware(routed, async () => {
        await allowedMethods(routed as unknown as Parameters<typeof allowedMethods>[0], next);
      });
      return;
    }
    if (siteHandler && (siteHosts.size === 0 || siteHosts.has(host))) {
      // Read by the bundle's feedback widget (a same-origin HEAD of its own page): it probes
      // /_enclave/health only where this mark says Enclave serves the page, so on other static
      // hosts nothing 404s and the console stays clean.
      ctx.set('X-Enclave-Site', '1');
      await siteHandler(ctx, next);
      return;
    }
    await next();
  });
  return { app, routes };
}
