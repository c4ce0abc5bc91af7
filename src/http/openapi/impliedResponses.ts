import type { ResponseSpec, RouteSpec } from '../defineRoute.js';
import { errorBodySchema } from '../errorBodySchema.js';

/**
 * The answers the shared middleware gives on a route's behalf, which the route itself never
 * declares: 400 for inputs its schemas refuse, 413 and 415 for bodies (parseJsonBody), 401 and
 * 403 for admin keys (authenticate), 429 for rate limits, 404 for a path naming nothing, 507
 * for a write on a full volume, and the bare 500. Added to the route's own responses (which win) so /openapi.json lists every
 * status the route can answer.
 */
export function impliedResponses(spec: RouteSpec): Record<number, ResponseSpec> {
  const error = (description: string): ResponseSpec => ({ description, schema: errorBodySchema });
  const implied: Record<number, ResponseSpec> = {};
  if (spec.body || spec.query || spec.params) implied[400] = error('Invalid input: `details` lists every problem found');
  if (spec.body) {
    implied[413] = error('Body larger than the limit');
    implied[415] = error('Content-Type is not application/json');
  }
  if (spec.auth === 'admin') {
    implied[401] = error('Missing, malformed, unknown, revoked or expired key (with WWW-Authenticate: Bearer)');
    implied[403] = error('Key of another project, or a read-only key on a write');
  }
  if (spec.rateLimit) implied[429] = error('Rate limited: Retry-After says when to try again');
  if (spec.params) implied[404] = error('Nothing found at this path');
  // Every write is refused whole when the data volume is full (AppError.insufficientStorage).
  if (spec.method !== 'GET' && spec.method !== 'HEAD') implied[507] = error('The data volume is full; nothing was written');
  implied[500] = error('Unexpected server error (no details are shown)');
  return { ...implied, ...spec.responses };
}
