import { mayOpenPage, type ReaderAudience } from '../../platform/access/mayAudienceSee.js';
import type { AccessMap } from '../../platform/access/PageAccess.js';
import type { NavDivision, NavItem } from '../config/SiteConfig.js';
import type { LoadedSite } from '../site/loadSite.js';

/**
 * The site as one audience may see it, for an export made for that audience (a public mirror):
 * pages it may not open are left out of the render, the link index, and the navigation
 * (sidebar, tabs, prev/next and breadcrumbs all come from it), so no title of theirs is written
 * anywhere. Groups and divisions left empty disappear with them.
 */
export function restrictToAudience(site: LoadedSite, map: AccessMap | null, audience: ReaderAudience): LoadedSite {
  const may = (path: string) => mayOpenPage(map?.pages[path], audience);
  const selected = site.selected.filter((p) => may(p.path));
  const keep = new Set(selected.map((p) => p.path));
  const nav = {
    ...site.nav,
    root: pruneDivision(site.nav.root, keep) ?? { ...site.nav.root, items: [], divisions: [] },
    pages: new Map([...site.nav.pages].filter(([path]) => keep.has(path))),
    order: site.nav.order.filter((p) => keep.has(p)),
    locations: new Map([...site.nav.locations].filter(([path]) => keep.has(path))),
  };
  const index = { ...site.index, pages: new Set([...site.index.pages].filter((p) => keep.has(p))) };
  return { ...site, selected, nav, index };
}

function pruneDivision(d: NavDivision, keep: Set<string>): NavDivision | null {
  const items = pruneItems(d.items, keep);
  const divisions = d.divisions.flatMap((c) => pruneDivision(c, keep) ?? []);
  if (d.href === undefined && d.kind !== 'root' && items.length === 0 && divisions.length === 0) return null;
  return { ...d, items, divisions };
}

function pruneItems(items: NavItem[], keep: Set<string>): NavItem[] {
  const out: NavItem[] = [];
  for (const item of items) {
    if (item.kind === 'page') {
      if (keep.has(item.path)) out.push(item);
    } else if (item.kind === 'group') {
      const children = pruneItems(item.items, keep);
      const root = item.root && keep.has(item.root) ? item.root : undefined;
      if (children.length > 0 || root) out.push({ ...item, root, items: children });
    } else out.push(item);
  }
  return out;
}
