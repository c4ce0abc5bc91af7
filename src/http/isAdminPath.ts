/** Path prefixes that belong to the admin API; every other path is the docs site. */
const ADMIN_PREFIXES = ['/v1/', '/v2/', '/bundles/', '/_enclave/'];

/** True when `path` is answered by the admin API rather than the live site. */
export function isAdminPath(path: string): boolean {
  return path === '/openapi.json' || ADMIN_PREFIXES.some((p) => path.startsWith(p) || path === p.slice(0, -1));
}
