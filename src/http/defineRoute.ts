import type { Context } from 'koa';
import type { z } from 'zod';
import type { RateLimiter } from './RateLimiter.js';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One documented response of a route. */
export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json when a schema is given. */
  contentType?: string;
}

/** One limiter a route draws on, and what it counts by (the caller's project unless `key` says otherwise). */
export interface RouteRateLimit {
  limiter: RateLimiter;
  key?: (ctx: Context) => string;
}

/** Validated inputs handed to a handler. */
export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

/**
 * A route: its contract (schemas, auth, limits, responses) and its handler. The same object
 * validates requests and generates /openapi.json, so the two can't drift apart.
 */
export interface RouteSpec<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  method: HttpMethod;
  /** Koa path syntax (`/v2/agent/:projectId/job/:id`). */
  path: string;
  summary: string;
  tag: string;
  /**
   * `admin`: bearer admin key required; `assistant`: bearer assistant key required (search, page,
   * answers: keys that may sit in pages); `public`: no key (health, feedback, signed downloads).
   */
  auth: 'admin' | 'assistant' | 'public';
  params?: P;
  query?: Q;
  body?: B;
  /** Checks that need the request itself (e.g. its Host), run on the raw body and reported together with the schemas' problems. */
  checkRequest?: (ctx: Context, body: unknown) => { message: string }[];
  /** Body size cap in bytes; defaults to the admin limit. */
  bodyLimitBytes?: number;
  /** Applied after authentication, in order; each keyed by project unless its `key` says otherwise. */
  rateLimit?: RouteRateLimit | RouteRateLimit[];
  responses: Record<number, ResponseSpec>;
  handler: (ctx: Context, input: RouteInput<z.infer<P>, z.infer<Q>, z.infer<B>>) => unknown | Promise<unknown>;
}

/** Declares a route with its inputs typed from its schemas. */
export function defineRoute<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
  spec: RouteSpec<P, Q, B>,
): RouteSpec {
  return spec as unknown as RouteSpec;
}
