import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { AppError } from '../../platform/AppError.js';
import { isDiskFull } from '../../platform/store/isDiskFull.js';

/**
 * The one place errors become HTTP: AppError and client-safe library errors keep their status
 * and message; anything else is logged with the request id and answered as a bare 500.
 */
export function handleErrors(options: { logger: Logger }) {
  return async function handleErrorsMiddleware(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.status === 404 && ctx.body == null) throw AppError.notFound(`No route for ${ctx.method} ${ctx.path}`);
    } catch (err) {
      const mapped = toAppError(err);
      if (mapped.status >= 500) {
        options.logger.error({ err, requestId: ctx.state.requestId }, 'request failed');
      }
      ctx.status = mapped.status;
      for (const [name, value] of Object.entries(mapped.headers ?? {})) ctx.set(name, value);
      // The rest of an over-limit body is still on the wire: reusing the socket would parse it
      // as the next request (or stall it until the keep-alive timeout), so close it instead.
      if (mapped.status === 413) ctx.set('Connection', 'close');
      const body: Record<string, unknown> = {
        error: mapped.status >= 500 && mapped.status !== 503 && mapped.status !== 507 ? 'Internal server error' : mapped.message,
      };
      if (mapped.details) body.details = mapped.details;
      if (mapped.extra) Object.assign(body, mapped.extra);
      ctx.type = 'application/json';
      ctx.body = body;
    }
  };
}

function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as {
    status?: number;
    statusCode?: number;
    expose?: boolean;
    message?: string;
    type?: string;
    code?: string;
    limit?: number;
  };
  // A full disk is answered 507 so clients know nothing was written.
  if (isDiskFull(err)) return AppError.insufficientStorage();
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413 || e.type === 'entity.too.large') {
      return new AppError(413, `Request body too large${e.limit ? ` (limit ${e.limit} bytes)` : ''}`);
    }
    if (e.type === 'entity.parse.failed' || /JSON|Unexpected token|invalid json/i.test(e.message ?? ''))
      return new AppError(400, 'Malformed JSON body');
    if (status === 415) return new AppError(415, 'Content-Type must be application/json');
    return new AppError(status, e.expose === false ? 'Bad request' : (e.message ?? 'Bad request'));
  }
  return new AppError(500, 'Internal server error', { cause: err });
}
