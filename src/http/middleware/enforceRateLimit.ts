import type { Context, Next } from 'koa';
import { AppError } from '../../platform/AppError.js';
import type { RateLimiter } from '../RateLimiter.js';

/**
 * Applies a limiter, setting the IETF `RateLimit-Policy` and `RateLimit` headers on every
 * response it covers, and answering 429 with `Retry-After` once the window is spent.
 */
export function enforceRateLimit(limiter: RateLimiter, keyOf: (ctx: Context) => string) {
  return async function enforceRateLimitMiddleware(ctx: Context, next: Next): Promise<void> {
    const d = limiter.consume(keyOf(ctx));
    ctx.set('RateLimit-Policy', `"${d.policy}";q=${d.limit};w=${d.windowSeconds}`);
    ctx.set('RateLimit', `"${d.policy}";r=${d.remaining};t=${d.resetSeconds}`);
    if (!d.allowed) {
      throw new AppError(429, 'Rate limit exceeded; retry later', { headers: { 'Retry-After': String(d.resetSeconds) } });
    }
    await next();
  };
}
