import type { SiteDirectory } from '../../control/SiteDirectory.js';

/** True when `domain`'s readers sign in (its previews then stay on its host, where their session cookie is). */
export function hasReaderSignIn(sites: Pick<SiteDirectory, 'find'>, domain: string): boolean {
  const mode = sites.find(domain)?.auth?.mode;
  return mode !== undefined && mode !== 'none';
}
