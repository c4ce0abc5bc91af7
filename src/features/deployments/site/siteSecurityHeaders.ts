import helmet from 'helmet';

/**
 * The security headers the admin API gets from helmet per request (nosniff, frame and referrer
 * policies, cross-origin policies …), computed once: the site answers with the same set on
 * every response without running helmet each time. The site's CSP is its own
 * (siteSecurityPolicy) and HSTS stays off, as for the admin API.
 */
export const SITE_SECURITY_HEADERS: readonly string[] = (() => {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  helmet({ hsts: false, contentSecurityPolicy: false })({} as never, res as never, () => {});
  return [...headers].flat();
})();
