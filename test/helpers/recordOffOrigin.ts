import type { BrowserContext } from 'playwright-core';

/**
 * Records (and aborts, so a miss shows here rather than as a timeout) every request a browser
 * context makes outside `origin` (`file://` or `http://host:port/`); `data:` URLs are inline.
 * Returns the list it fills and every URL seen.
 */
export async function recordOffOrigin(context: BrowserContext, origin: string): Promise<{ outbound: string[]; seen: string[] }> {
  const outbound: string[] = [];
  const seen: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    seen.push(url);
    if (url.startsWith(origin) || url.startsWith('data:')) return route.continue();
    outbound.push(url);
    return route.abort();
  });
  return { outbound, seen };
}
