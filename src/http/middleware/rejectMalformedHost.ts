import type { Context, Next } from 'koa';
import { AppError } from '../../platform/AppError.js';

/** A DNS name (underscores allowed: container service names use them) or a bracketed IPv6 literal, then an optional port. */
const HOST = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_.])?|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/** True when `value` is a well-formed Host header value (RFC 9110 §7.2, no userinfo). */
export function isWellFormedHost(value: string): boolean {
  const match = HOST.exec(value);
  if (!match) return false;
  const port = match[1];
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}

/**
 * Refuses with 400 a request whose Host (or, behind a trusted proxy, X-Forwarded-Host) is not a
 * plain name and port. Koa reads `docs.local@admin.local` as host `admin.local`, so host-based
 * routing would otherwise send it to the admin API; whitespace, commas and bad ports are refused
 * for the same reason: the name that routing sees must be the name the client sent.
 */
export function rejectMalformedHost(options: { trustProxy: boolean }) {
  return async function rejectMalformedHostMiddleware(ctx: Context, next: Next): Promise<void> {
    // Proxies append to X-Forwarded-Host; Koa (and so routing) uses its first value only.
    const forwarded = options.trustProxy ? (ctx.get('X-Forwarded-Host').split(',')[0]?.trim() ?? '') : '';
    const host = forwarded || ctx.get('Host');
    // HTTP/1.0 may omit Host; Node already refuses an HTTP/1.1 request without one.
    if (host !== '' && !isWellFormedHost(host)) throw AppError.badRequest('Malformed Host header');
    await next();
  };
}
