import helmet from 'helmet';

/**
 * The security headers every site response carries, computed once from helmet (so they track
 * the admin API's) and sent without running helmet per request. The site's CSP is its own
 * (siteSecurityPolicy) and HSTS stays off, as for the admin API. Left out are the headers only
 * retired browsers act on, each covered by one the site does send: X-Frame-Options (CSP
 * frame-ancestors), X-XSS-Protection (no current browser has the filter it turns off),
 * X-Download-Options (IE8) and X-Permitted-Cross-Domain-Policies (Flash). Every header costs
 * each response its bytes and each client its parsing, on the path that answers most requests.
 */
export const SITE_SECURITY_HEADERS: readonly string[] = (() => {
  const headers = new Map<string, string>();
  const res = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  helmet({
    hsts: false,
    contentSecurityPolicy: false,
    xFrameOptions: false,
    xXssProtection: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
  })({} as never, res as never, () => {});
  return [...headers].flat();
})();
