import type { Context, Next } from 'koa';
import type { z } from 'zod';
import { AppError, type ErrorDetail } from '../../platform/AppError.js';
import type { RouteSpec } from '../defineRoute.js';

/**
 * Validates path parameters, query and body against the route's schemas and reports every
 * problem found across all three at once. Parsed values land on `ctx.state.input`.
 */
export function validateInput(spec: RouteSpec) {
  return async function validateInputMiddleware(ctx: Context, next: Next): Promise<void> {
    const details: ErrorDetail[] = [];
    const params = check(spec.params, ctx.params ?? {}, 'path', details);
    const query = check(spec.query, emptyAsAbsent(ctx.query), 'query', details);
    const body = check(spec.body, ctx.request.body ?? {}, 'body', details);
    if (spec.checkRequest) details.push(...spec.checkRequest(ctx, ctx.request.body ?? {}));
    if (details.length > 0) throw AppError.invalid(details);
    ctx.state.input = { params, query, body };
    await next();
  };
}

/**
 * `?limit=&status=` as a form or script sends it: an empty value counts as absent (the hosted
 * API reads it so). The key stays, as undefined, so an unknown parameter is still named.
 */
function emptyAsAbsent(query: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [key, value] of Object.entries(query)) out[key] = value === '' ? undefined : value;
  return out;
}

function check(schema: z.ZodType | undefined, value: unknown, where: string, details: ErrorDetail[]): unknown {
  if (!schema) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const at = issue.path.length ? `${where}.${issue.path.join('.')}` : where;
    details.push({ message: `${at}: ${issue.message}` });
  }
  return undefined;
}
