import { SCOPE_DIVISION_KINDS, type NavDivision, type NavItem } from '../config/SiteConfig.js';

/** Finds, for a page of one language/version/product, where the reader lands in another. */
export type CounterpartFinder = (path: string, to: NavDivision) => string | undefined;

/**
 * Builds the lookup behind switchers that keep the page: the same page in the other division
 * when it has one, else that division's nearest ancestor page, else undefined (the caller falls
 * back to the division's first page). Pages are matched by path with the folders of languages,
 * versions and products taken off (`fr/guides/a` ↔ `es/guides/a` ↔ `guides/a` ↔ `en/v2/guides/a`),
 * and `x/index` counts as `x`. Only pages `published` accepts are targets; `generated` pages
 * (API pages made from a spec) don't decide a division's folder.
 */
// size: the finder's index and its lookups are closures over one pass of the navigation
export function createCounterpartFinder(
  root: NavDivision,
  published: (path: string) => boolean,
  generated: (path: string) => boolean = () => false,
): CounterpartFinder {
  const pagesOf = new Map<NavDivision, string[]>();
  const collect = (d: NavDivision): string[] => {
    const own: string[] = [];
    const visit = (items: NavItem[]) => {
      for (const item of items) {
        if (item.kind === 'page') own.push(item.path);
        else if (item.kind === 'group') {
          if (item.root) own.push(item.root);
          visit(item.items);
        }
      }
    };
    visit(d.items);
    for (const child of d.divisions) own.push(...collect(child));
    pagesOf.set(d, own);
    return own;
  };
  collect(root);

  // The folders that hold one language, version or product each (`fr/`, `v2/`): taken off a
  // path, as many as lead it, to give the key a page is matched by across divisions.
  const scopeFolders = new Set<string>();
  for (const [d, pages] of pagesOf) {
    if (!SCOPE_DIVISION_KINDS.has(d.kind) || pages.length === 0) continue;
    // The folders all of the division's written pages share (`en/v2/` for a version inside a
    // language). Generated API pages (`api-reference/…`) sit outside a language's folder.
    const written = pages.filter((p) => !generated(p));
    if (written.length === 0) continue;
    const shared = written[0].split('/').slice(0, -1);
    for (const p of written) {
      const segments = p.split('/');
      let n = 0;
      while (n < shared.length && n < segments.length - 1 && segments[n] === shared[n]) n++;
      shared.length = n;
    }
    for (const folder of shared) scopeFolders.add(folder);
  }
  /** The keys a page is known by: without its division folders first, then as written; `x/index` is `x`. */
  const keysOf = (path: string): string[] => {
    const segments = path.split('/');
    while (segments.length > 1 && scopeFolders.has(segments[0])) segments.shift();
    const bare = segments.join('/');
    return (bare === path ? [path] : [bare, path]).map((k) => (k === 'index' ? '' : k.replace(/\/index$/, '')));
  };
  const byKey = new Map<NavDivision, Map<string, string>>();
  const keyMap = (d: NavDivision): Map<string, string> => {
    let map = byKey.get(d);
    if (!map) {
      map = new Map();
      for (const p of pagesOf.get(d) ?? []) {
        if (!published(p)) continue;
        for (const k of keysOf(p)) if (!map.has(k)) map.set(k, p);
      }
      byKey.set(d, map);
    }
    return map;
  };

  return (path, to) => {
    const target = keyMap(to);
    const keys = keysOf(path);
    for (const k of keys) {
      const hit = target.get(k);
      if (hit) return hit;
    }
    // The nearest ancestor: drop one segment at a time, the division-relative key first.
    for (const k of keys) {
      const segments = k.split('/');
      while (segments.length > 0) {
        segments.pop();
        const hit = target.get(segments.join('/'));
        if (hit) return hit;
      }
    }
    return undefined;
  };
}
