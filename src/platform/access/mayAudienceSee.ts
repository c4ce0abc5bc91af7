import type { AccessMap, PageAccess } from './PageAccess.js';

/** A reader as access rules see them: not signed in (`null`), or signed in with their groups. */
export type ReaderAudience = { groups: readonly string[] } | null;

/**
 * True when `audience` may open a page with `access` (the hosted rules): public pages to
 * everyone, other pages to signed-in readers, and a page with groups only to a reader holding
 * at least one of them. A page the map does not name needs a signed-in reader.
 */
export function mayOpenPage(access: PageAccess | undefined, audience: ReaderAudience): boolean {
  if (access === 'public') return true;
  if (audience === null) return false;
  if (access === undefined || access === 'signed-in') return true;
  return access.some((group) => audience.groups.includes(group));
}

/**
 * May `audience` see page `pagePath` of a bundle whose access map is `map` (null: the bundle
 * marks no page, so every page needs a signed-in reader). The one answer every surface asks:
 * the site handler, search and page APIs, the assistant's retrieval.
 */
export function mayAudienceSee(map: AccessMap | null, audience: ReaderAudience, pagePath: string): boolean {
  return mayOpenPage(map?.pages[pagePath], audience);
}
