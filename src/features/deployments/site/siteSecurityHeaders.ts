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

/** Headers that act only on a document a browser displays (an opener, its own requests, its origin's grouping). */
const DOCUMENT_ONLY = new Set(['Cross-Origin-Opener-Policy', 'Origin-Agent-Cluster', 'X-DNS-Prefetch-Control']);
/** Headers that act only on a file another page loads (whether other origins may embed it). */
const SUBRESOURCE_ONLY = new Set(['Cross-Origin-Resource-Policy']);

/** `SITE_SECURITY_HEADERS` without the names in `skip`. */
function without(skip: Set<string>): readonly string[] {
  const out: string[] = [];
  for (let i = 0; i < SITE_SECURITY_HEADERS.length; i += 2)
    if (!skip.has(SITE_SECURITY_HEADERS[i])) out.push(SITE_SECURITY_HEADERS[i], SITE_SECURITY_HEADERS[i + 1]);
  return out;
}

/** What a page that declares them in its head (DOCUMENT_POLICY_META) needs no header for. */
const DECLARED_IN_HEAD = ['Referrer-Policy', 'X-DNS-Prefetch-Control'];

const FOR_DOCUMENTS = without(SUBRESOURCE_ONLY);
const FOR_SELF_DECLARING_DOCUMENTS = without(new Set([...SUBRESOURCE_ONLY, ...DECLARED_IN_HEAD]));
const FOR_SUBRESOURCES = without(DOCUMENT_ONLY);

/**
 * Whether a browser shows a file of this type as a document of its own (HTML, SVG and XML can
 * run script): such files get the site's CSP and the document headers; every other file (scripts,
 * styles, fonts, raster images, JSON …) only the headers that act on a loaded resource. Other
 * origins can't read an HTML page through a no-cors load anyway: nosniff makes browsers block it.
 */
export function isDocumentType(contentType: string): boolean {
  return /^(text\/html|image\/svg\+xml|application\/xhtml\+xml|text\/xml|application\/xml)\b/.test(contentType);
}

/**
 * The security headers a site file of `contentType` is sent with (never its CSP: see
 * siteSecurityPolicy); `headPolicies` for a page that declares its referrer and DNS-prefetch
 * policies in its own head, where the headers would only repeat them.
 */
export function securityHeadersFor(contentType: string, headPolicies = false): readonly string[] {
  if (!isDocumentType(contentType)) return FOR_SUBRESOURCES;
  return headPolicies ? FOR_SELF_DECLARING_DOCUMENTS : FOR_DOCUMENTS;
}
