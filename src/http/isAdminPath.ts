/** Path prefixes answered by the router (admin API, health, feedback, signed downloads); every other path is the docs site. */
const ROUTER_PREFIXES = ['/v1/', '/v2/', '/bundles/', '/_enclave/'];
/** Path prefixes of the admin API proper: everything behind an admin key. */
const ADMIN_API_PREFIXES = ['/v1/', '/v2/', '/_enclave/admin/'];
/**
 * Under /v1 and /v2 but for readers: the assistant endpoints take an assistant key, which may be
 * embedded in a docs page, so they answer on the site's own host and listener like the feedback widget.
 */
const READER_API_PREFIXES = ['/v1/search/', '/v1/page/', '/v1/assistant/', '/v2/assistant/'];

const underAny = (path: string, prefixes: string[]) => prefixes.some((p) => path.startsWith(p) || path === p.slice(0, -1));
/** The router ignores one trailing slash, so `/openapi.json/` is the same route. */
const isOpenApi = (path: string) => path === '/openapi.json' || path === '/openapi.json/';

/** True when `path` is answered by the router rather than the live site. */
export function isAdminPath(path: string): boolean {
  return isOpenApi(path) || underAny(path, ROUTER_PREFIXES);
}

/**
 * True for the admin API proper (`/v1`, `/v2`, `/openapi.json`) and its dashboard (`/_enclave/admin`). The other router paths are
 * for readers and machines without an admin key: the feedback widget (`/_enclave/feedback`,
 * `/_enclave/health`), probes (`/_enclave/ready`) and signed download links (`/bundles/`).
 */
export function isAdminApiPath(path: string): boolean {
  return isOpenApi(path) || (underAny(path, ADMIN_API_PREFIXES) && !isReaderApiPath(path));
}

/** True for the assistant endpoints under /v1 and /v2 (search, page, messages): assistant keys, any host. */
export function isReaderApiPath(path: string): boolean {
  return READER_API_PREFIXES.some((p) => path.startsWith(p));
}

/** True for the dashboard's page and files (`/_enclave/admin…`), served only where no docs share the origin. */
export function isDashboardPath(path: string): boolean {
  return path === '/_enclave/admin' || path.startsWith('/_enclave/admin/');
}
