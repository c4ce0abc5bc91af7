import { randomBytes } from 'node:crypto';
import type { Context, Next } from 'koa';

/** Only ids of this shape are echoed back, so a client can't inject text into our headers or logs. */
const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Gives every request an id (the client's X-Request-Id when safe) and echoes it. Generated ids
 * are a random per-process prefix plus a counter: unique, unguessable across restarts, and
 * without a call into the random source on every request.
 */
export function assignRequestId() {
  const prefix = randomBytes(4).toString('hex');
  let counter = 0;
  return async function assignRequestIdMiddleware(ctx: Context, next: Next): Promise<void> {
    const incoming = ctx.get('X-Request-Id');
    const id = SAFE_ID.test(incoming) ? incoming : `${prefix}${(counter++ & 0xffffffff).toString(16).padStart(8, '0')}`;
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}
