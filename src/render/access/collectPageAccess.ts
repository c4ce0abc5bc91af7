import type { AccessMap, BuiltAudience, PageAccess } from '../../platform/access/PageAccess.js';
import type { NavDivision, NavItem } from '../config/SiteConfig.js';
import type { LoadedSite } from '../site/loadSite.js';

/**
 * Every selected page's access under reader sign-in, from the author's marks as the hosted
 * product reads them: `groups:` in frontmatter (or `x-mint.groups` on the operation behind a
 * generated page) limits a page to those groups; otherwise `public: true` in frontmatter, or a
 * navigation group with `"public": true` above it, opens it to everyone; anything else needs a
 * signed-in reader. Groups win over public: a page an author limited to a group never opens to
 * everyone because the group it sits in is public (the safer reading of a contradiction).
 * Null when no page carries a mark: then every page simply needs a signed-in reader.
 */
export function collectPageAccess(site: Pick<LoadedSite, 'nav' | 'frontmatter' | 'operations' | 'selected'>): AccessMap | null {
  const publicInNav = new Set<string>();
  collectPublic(site.nav.root, false, publicInNav);
  const pages: Record<string, PageAccess> = {};
  let marked = false;
  for (const page of site.selected) {
    const access = accessOf(page.path, site, publicInNav);
    if (access !== 'signed-in') marked = true;
    pages[page.path] = access;
  }
  if (!marked) return null;
  return { v: 1, pages, audiences: audiencesFor(Object.values(pages)) };
}

function accessOf(path: string, site: Pick<LoadedSite, 'nav' | 'frontmatter' | 'operations'>, publicInNav: Set<string>): PageAccess {
  const fm = site.frontmatter.get(path);
  const groups = groupList(fm?.groups) ?? operationGroups(path, site);
  if (groups) return groups;
  if (fm?.public === true || publicInNav.has(path)) return 'public';
  return 'signed-in';
}

/** `groups:` as a list of names (a single string counts as one); null when absent or empty. */
function groupList(value: unknown): string[] | null {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  const names = [...new Set(list.filter((g): g is string => typeof g === 'string').map((g) => g.trim()))].filter(Boolean);
  return names.length ? names.sort() : null;
}

/** The `x-mint.groups` of the operation a generated page documents. */
function operationGroups(path: string, site: Pick<LoadedSite, 'nav' | 'operations'>): string[] | null {
  const source = site.nav.pages.get(path)?.source;
  if (source?.kind !== 'operation') return null;
  const op = site.operations.get(source.spec)?.find((o) => o.method === source.method.toLowerCase() && o.path === source.path);
  return groupList(op?.groups);
}

function collectPublic(division: NavDivision, inherited: boolean, out: Set<string>): void {
  collectPublicItems(division.items, inherited, out);
  for (const child of division.divisions) collectPublic(child, inherited, out);
}

function collectPublicItems(items: NavItem[], inherited: boolean, out: Set<string>): void {
  for (const item of items) {
    if (item.kind === 'page' && inherited) out.add(item.path);
    else if (item.kind === 'group') {
      const open = inherited || item.public === true;
      if (open && item.root) out.add(item.root);
      collectPublicItems(item.items, open, out);
    }
  }
}

/**
 * The audiences an export builds search indexes and llms files for: the public, and a reader
 * holding exactly each distinct group set the pages name. A signed-in reader without groups
 * needs none of their own when no page has groups (they see every page: the site-wide files).
 */
function audiencesFor(access: PageAccess[]): BuiltAudience[] {
  const sets = new Map<string, string[]>();
  for (const a of access) if (Array.isArray(a)) sets.set(a.join('\n'), [...a]);
  const audiences: BuiltAudience[] = [{ id: 'public', groups: null }];
  if (sets.size > 0) audiences.push({ id: 'signed-in', groups: [] });
  let n = 0;
  for (const groups of sets.values()) audiences.push({ id: `g${n++}`, groups });
  return audiences;
}
