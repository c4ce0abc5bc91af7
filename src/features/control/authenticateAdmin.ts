import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import type { AuthState } from '../../http/AuthState.js';
import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import { authenticateAdminKey } from './authenticateAdminKey.js';
import type { AdminKeyRepository } from './AdminKeyRepository.js';

const BEARER = /^Bearer ([^\s]+)$/;

/**
 * Admin-key authentication and authorisation: 401 (with WWW-Authenticate) for a missing, bad,
 * revoked or expired key; 403 for another project's path, a read key on a write method, or an
 * assistant key.
 */
export function authenticateAdmin(options: { keys: AdminKeyRepository; clock: Clock; logger: Logger }) {
  return async function authenticateAdminMiddleware(ctx: Context, next: Next): Promise<void> {
    const header = ctx.get('Authorization');
    const presented = BEARER.exec(header)?.[1];
    const check = authenticateAdminKey(options.keys, options.clock, header && !presented ? '!' : presented);
    if (!check.ok) {
      options.logger.debug({ requestId: ctx.state.requestId, reason: check.reason }, 'admin key refused');
      throw AppError.unauthorized();
    }
    const { key } = check;
    // Assistant keys may be embedded in pages: they open the search, page and answer endpoints only.
    if (key.kind === 'assistant') throw AppError.forbidden('An assistant key may only call the search, page, assistant and MCP endpoints');
    const pathProject = (ctx.params as Record<string, string> | undefined)?.projectId;
    if (pathProject !== undefined && pathProject !== key.projectId) throw AppError.forbidden('This key does not belong to that project');
    if (key.scope === 'read' && ctx.method !== 'GET' && ctx.method !== 'HEAD') throw AppError.forbidden('This key is read-only');
    ctx.state.auth = { keyId: key.id, projectId: key.projectId, scope: key.scope } satisfies AuthState;
    await next();
  };
}
