import type { Context, Next } from 'koa';
import { AppError } from '../../platform/AppError.js';
import { isAdminApiPath } from '../isAdminPath.js';

/**
 * Refuses (403) an admin API request that carries credentials and was sent by a web page other
 * than the dashboard on its own listener. Browsers mark what a page's script sends
 * (`Sec-Fetch-Site`; older ones only `Origin`); the CLI, curl and scripts send neither, so they
 * are unaffected. On a listener that also serves the docs (`servesDashboard` false) every
 * page-sent call is refused: a key there can only have come from a docs page's script, whose
 * author may be anyone with a write key. On the dashboard's listener only same-origin calls
 * pass, so a docs page on a sibling port (same site, other origin) is refused too.
 */
export function refuseForeignPageCalls(options: { servesDashboard: boolean }) {
  return async function refuseForeignPageCallsMiddleware(ctx: Context, next: Next): Promise<void> {
    if (isAdminApiPath(ctx.path) && ctx.get('Authorization') !== '' && sentByForeignPage(ctx, options.servesDashboard))
      throw AppError.forbidden('The admin API takes no key from a web page other than the dashboard on its own listener');
    await next();
  };
}

function sentByForeignPage(ctx: Context, servesDashboard: boolean): boolean {
  const fetchSite = ctx.get('Sec-Fetch-Site').toLowerCase();
  // `none`: the user typed the address or used a bookmark; no page chose to send this.
  if (fetchSite !== '') return fetchSite !== 'none' && !(servesDashboard && fetchSite === 'same-origin');
  const origin = ctx.get('Origin');
  if (origin === '') return false;
  return !servesDashboard || originHost(origin) !== ctx.host.toLowerCase();
}

/** The host[:port] of an Origin header, lower-case; '' for `null` and anything unparsable. */
function originHost(origin: string): string {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return '';
  }
}
