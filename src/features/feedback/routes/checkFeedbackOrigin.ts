import type { Context } from 'koa';
import { AppError } from '../../../platform/AppError.js';

/** `https://Docs.Example.com:443/` → `https://docs.example.com` (null if not a URL). */
function normaliseOrigin(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Refuses browser posts from other sites: an `Origin` that is neither this request's own host
 * nor listed in `allowedOrigins`, or `Sec-Fetch-Site: cross-site` without such an origin.
 * Clients that send neither header (scripts, agents) aren't browsers acting for another site.
 * Returns the allowed foreign origin, if any, so the response can name it for CORS.
 */
export function checkFeedbackOrigin(ctx: Context, allowedOrigins: ReadonlySet<string>): string | null {
  const rawOrigin = ctx.get('Origin');
  const fetchSite = ctx.get('Sec-Fetch-Site').toLowerCase();
  if (!rawOrigin) {
    if (fetchSite === 'cross-site') throw AppError.forbidden('Cross-origin feedback is not accepted');
    return null;
  }
  const origin = normaliseOrigin(rawOrigin);
  if (origin && new URL(origin).host === ctx.host.toLowerCase()) return null;
  if (origin && allowedOrigins.has(origin)) return origin;
  throw AppError.forbidden('Cross-origin feedback is not accepted');
}

/** The configured extra origins, normalised for comparison (invalid entries are ignored). */
export function allowedOriginSet(origins: readonly string[]): ReadonlySet<string> {
  return new Set(origins.map(normaliseOrigin).filter((o): o is string => o !== null));
}
