/**
 * The Content-Security-Policy of the docs site: everything from the site's own origin, images
 * and fonts also as `data:` URLs, inline style attributes (syntax highlighting and math emit
 * them), feedback posts to the same origin, and nothing from anywhere else. Inline scripts run
 * only when their hash was recorded for that page at activation.
 */
export function siteSecurityPolicy(scriptHashes: readonly string[] = []): string {
  const scripts = ["'self'", ...scriptHashes.map((h) => `'${h}'`)].join(' ');
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "media-src 'self'",
    "frame-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** The policy of pages the appliance writes itself (the 503 page): no scripts at all. */
export const PLAIN_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
