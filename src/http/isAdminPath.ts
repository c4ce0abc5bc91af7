/** Path prefixes answered by the router (admin API, health, feedback, signed downloads); every other path is the docs site. */
const ROUTER_PREFIXES = ['/v1/', '/v2/', '/bundles/', '/_enclave/'];
/** Path prefixes of the admin API proper: everything behind an admin key. */
const ADMIN_API_PREFIXES = ['/v1/', '/v2/', '/_enclave/admin/'];

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
  return isOpenApi(path) || underAny(path, ADMIN_API_PREFIXES);
}

/** True for the dashboard's page and files (`/_enclave/admin…`), served only where no docs share the origin. */
export function isDashboardPath(path: string): boolean {
  return path === '/_enclave/admin' || path.startsWith('/_enclave/admin/');
}
