/**
 * The Content-Security-Policy of the docs site: everything from the site's own origin, images
 * and fonts also as `data:` URLs, inline style attributes (syntax highlighting and math emit
 * them), feedback posts to the same origin, and nothing from anywhere else. Inline scripts run
 * only when their hash was recorded for that page at activation.
 *
 * The one exception is `apiPlayground` pages (API pages with a "Try it" form): the reader types
 * the API server's URL there, so no list could name it in advance, and those pages alone may
 * connect to any http(s) URL. Only the bundled playground script sends, and only on the reader's
 * click to the URL they chose; every other page keeps `connect-src 'self'`.
 *
 * Fetch directives that would only repeat `default-src 'self'` (script-src without hashes,
 * connect-src, media-src, frame-src, worker-src) are left to that fallback: the policy means
 * the same and every response is shorter.
 */
export function siteSecurityPolicy(scriptHashes: readonly string[] = [], opts: { apiPlayground?: boolean } = {}): string {
  return [
    "default-src 'self'",
    scriptHashes.length ? `script-src 'self' ${scriptHashes.map((h) => `'${h}'`).join(' ')}` : null,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    opts.apiPlayground ? "connect-src 'self' http: https:" : null,
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
