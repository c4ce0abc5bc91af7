import { randomBytes } from 'node:crypto';
import type { Context, Next } from 'koa';

/** Only ids of this shape are echoed back, so a client can't inject text into our headers or logs. */
const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * A request id source: the client's X-Request-Id when safe, else a random per-process prefix
 * plus a counter: unique, unguessable across restarts, and without a call into the random
 * source on every request. Shared by the admin stack and the site's fast path.
 */
export function createRequestIds(): (incoming: string | string[] | undefined) => string {
  const prefix = randomBytes(4).toString('hex');
  let counter = 0;
  return (incoming) =>
    typeof incoming === 'string' && SAFE_ID.test(incoming)
      ? incoming
      : `${prefix}${(counter++ & 0xffffffff).toString(16).padStart(8, '0')}`;
}

/** Gives every request an id (see createRequestIds) and echoes it in X-Request-Id. */
export function assignRequestId(nextId: (incoming: string | string[] | undefined) => string = createRequestIds()) {
  return async function assignRequestIdMiddleware(ctx: Context, next: Next): Promise<void> {
    const id = nextId(ctx.req.headers['x-request-id']);
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}
