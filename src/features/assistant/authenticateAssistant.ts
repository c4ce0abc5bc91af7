import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import type { AuthState } from '../../http/AuthState.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import { type AssistantCaller, checkAssistantCaller, type VerifyAssistantKey } from './AssistantCaller.js';

/**
 * Middleware for routes with `auth: 'assistant'` (path parameter `domain`, else the Host): checks the assistant
 * key against that site (checkAssistantCaller) and sets `ctx.state.auth` (scope `read`) and
 * `ctx.state.assistant` (the caller), so rate limits can count per key.
 */
export function authenticateAssistant(options: { verify: VerifyAssistantKey; sites: Pick<SiteDirectory, 'find'>; logger: Logger }) {
  return async function authenticateAssistantMiddleware(ctx: Context, next: Next): Promise<void> {
    // The site is named by the path (`/v1/search/{domain}`) or, where the path has none (MCP), by the Host.
    const domain = String((ctx.params as Record<string, string> | undefined)?.domain ?? ctx.hostname).toLowerCase();
    let caller: AssistantCaller;
    try {
      caller = checkAssistantCaller(options.verify, options.sites, ctx.get('Authorization'), domain);
    } catch (err) {
      options.logger.debug({ requestId: ctx.state.requestId, err: (err as Error).message }, 'assistant key refused');
      throw err;
    }
    ctx.state.auth = { keyId: caller.keyId, projectId: caller.projectId, scope: 'read' } satisfies AuthState;
    ctx.state.assistant = caller;
    await next();
  };
}

/** The assistant caller of a request that passed authenticateAssistant. */
export function assistantCaller(ctx: Context): AssistantCaller {
  return ctx.state.assistant as AssistantCaller;
}
