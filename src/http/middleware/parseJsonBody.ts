import type { Context, Middleware, Next } from 'koa';
import { AppError } from '../../platform/AppError.js';

/**
 * Parses a JSON body up to `limitBytes` (413 above it, 400 when malformed, 415 when another
 * content type is sent). An empty body parses as `{}` so schemas report missing fields.
 */
export function parseJsonBody(limitBytes: number) {
  // koa-body (with formidable, which JSON never uses) costs ~0.13 s of CPU to import: loaded at
  // the first request with a body, not by every process that starts the appliance.
  let parse: Promise<Middleware> | null = null;
  const loadParser = async (): Promise<Middleware> => {
    const { HttpMethodEnum, koaBody } = await import('koa-body');
    return koaBody({
      json: true,
      urlencoded: false,
      text: false,
      multipart: false,
      jsonLimit: limitBytes,
      jsonStrict: true,
      parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    }) as Middleware;
  };
  return async function parseJsonBodyMiddleware(ctx: Context, next: Next): Promise<void> {
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > limitBytes) throw new AppError(413, `Request body too large (limit ${limitBytes} bytes)`);
    const hasBody = declared > 0 || ctx.get('Transfer-Encoding') !== '';
    if (hasBody && !ctx.is('application/json', 'application/*+json')) throw new AppError(415, 'Content-Type must be application/json');
    parse ??= loadParser();
    await (await parse)(ctx, async () => {});
    if (hasBody && (ctx.request.body === null || typeof ctx.request.body !== 'object' || Array.isArray(ctx.request.body))) {
      throw AppError.badRequest('The body must be a JSON object');
    }
    await next();
  };
}
