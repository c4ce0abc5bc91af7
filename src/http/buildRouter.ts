import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { RouteSpec } from './defineRoute.js';
import type { AuthState } from './AuthState.js';
import { enforceRateLimit } from './middleware/enforceRateLimit.js';
import { parseJsonBody } from './middleware/parseJsonBody.js';
import { validateInput } from './middleware/validateInput.js';
import { AppError } from '../platform/AppError.js';

/** What the router needs besides the routes. */
export interface RouterDeps {
  /** Authenticates admin routes and sets `ctx.state.auth` (the control feature provides it). */
  authenticate: Middleware;
  /** Authenticates assistant routes (assistant keys) and sets `ctx.state.auth`; refuses all when absent. */
  authenticateAssistant?: Middleware;
  adminBodyBytes: number;
}

/**
 * Mounts every route spec on one router, each behind the same chain: authenticate (admin
 * routes) → rate limit → parse body → validate → handler. Nothing is mounted any other way,
 * so /openapi.json lists exactly what the server answers.
 */
export function buildRouter(routes: RouteSpec[], deps: RouterDeps): Router {
  // Case-sensitive: isAdminPath/isAdminApiPath decide which paths are admin (and on which hosts
  // and listeners they answer) by exact prefix. A router that also matched `/_enclave/ADMIN`
  // would serve the dashboard and key checks where that split had sent nothing.
  const router = new Router({ sensitive: true });
  for (const spec of routes) {
    const chain: Middleware[] = [];
    if (spec.auth === 'admin') chain.push(deps.authenticate);
    if (spec.auth === 'assistant') chain.push(deps.authenticateAssistant ?? refuseAssistantRoutes);
    for (const limit of spec.rateLimit === undefined ? [] : [spec.rateLimit].flat()) {
      const keyOf = limit.key ?? ((ctx: Context) => (ctx.state.auth as AuthState | undefined)?.projectId ?? ctx.ip);
      chain.push(enforceRateLimit(limit.limiter, keyOf));
    }
    if (spec.body) chain.push(parseJsonBody(spec.bodyLimitBytes ?? deps.adminBodyBytes));
    chain.push(validateInput(spec));
    // The handler ends the chain: an API route never falls through to the site server.
    chain.push(async function routeHandler(ctx: Context) {
      await spec.handler(ctx, ctx.state.input);
    });
    router.register(spec.path, [spec.method], chain); // GET routes answer HEAD too
  }
  return router;
}

/** Without a feature that checks assistant keys, no assistant route is open: fail closed. */
async function refuseAssistantRoutes(): Promise<never> {
  throw AppError.unauthorized();
}
