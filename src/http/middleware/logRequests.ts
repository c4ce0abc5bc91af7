import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { redactUrl } from '../../platform/logging/redact.js';

/** One structured log line per request: id, method, redacted URL, status, duration. */
export function logRequests(options: { logger: Logger }) {
  return async function logRequestsMiddleware(ctx: Context, next: Next): Promise<void> {
    if (!options.logger.isLevelEnabled('info')) return next();
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      options.logger.info(
        { requestId: ctx.state.requestId, method: ctx.method, url: redactUrl(ctx.url), status: ctx.status, ms: Math.round(ms * 100) / 100 },
        'request',
      );
    }
  };
}
