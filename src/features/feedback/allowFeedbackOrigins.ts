import type { Context, Next } from 'koa';

/** The public endpoints a bundle hosted on another origin calls: the health probe and feedback posts. */
const CROSS_ORIGIN_PATHS = new Set(['/_enclave/feedback', '/_enclave/health']);

/**
 * CORS for bundles hosted elsewhere that post feedback here: origins listed in
 * `feedback.allowedOrigins` get `Access-Control-Allow-Origin` on the feedback and health
 * endpoints and an answer to the browser's preflight. Every other origin gets no CORS headers,
 * so browsers keep refusing it.
 */
export function allowFeedbackOrigins(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins.map((o) => o.replace(/\/+$/, '').toLowerCase()));
  return async function allowFeedbackOriginsMiddleware(ctx: Context, next: Next): Promise<void> {
    const origin = ctx.get('Origin');
    if (!CROSS_ORIGIN_PATHS.has(ctx.path) || !origin || !allowed.has(origin.toLowerCase())) return next();
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.vary('Origin');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', ctx.path === '/_enclave/feedback' ? 'POST' : 'GET');
      ctx.set('Access-Control-Allow-Headers', 'Content-Type');
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    await next();
  };
}
