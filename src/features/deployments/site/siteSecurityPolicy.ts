/**
 * The Content-Security-Policy of the docs site: everything from the site's own origin, images
 * and fonts also as `data:` URLs, inline style attributes (syntax highlighting and math emit
 * them), feedback posts to the same origin, and nothing from anywhere else. Inline scripts run
 * only when their hash was recorded for that page at activation.
 *
 * The one exception is pages the bundle's manifest lists with a "Try it" form (API pages): they
 * may also connect to `connect`, the origins of the servers their OpenAPI document names plus
 * those the operator allows (`staticExport.tryItOrigins`). Which pages those are comes from the
 * renderer's manifest, never from a page's bytes, and the renderer keeps custom scripts off
 * them; every other page keeps `connect-src 'self'`.
 *
 * Fetch directives that would only repeat `default-src 'self'` (script-src without hashes,
 * connect-src, media-src, frame-src, worker-src) are left to that fallback: the policy means
 * the same and every response is shorter.
 */
export function siteSecurityPolicy(scriptHashes: readonly string[] = [], opts: { connect?: readonly string[] } = {}): string {
  const connect = [...new Set(opts.connect ?? [])];
  return [
    "default-src 'self'",
    scriptHashes.length ? `script-src 'self' ${scriptHashes.map((h) => `'${h}'`).join(' ')}` : null,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    connect.length ? `connect-src 'self' ${connect.join(' ')}` : null,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ]
    .filter((directive) => directive !== null)
    .join('; ');
}

/** The policy of pages the appliance writes itself (the 503 page): no scripts at all. */
export const PLAIN_PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
