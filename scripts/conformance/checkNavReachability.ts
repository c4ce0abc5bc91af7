import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, posix, relative } from 'node:path';

/** Navigation entries of a source that no exported page's header (tab bar, menus, switchers) or sidebar links to. */
export interface NavReachability {
  /** Page files the source's navigation names (operation entries left out: their slugs are generated). */
  declared: number;
  unreachable: string[];
  /** Exported pages the navigation doesn't name (published, reachable only by links, as in the hosted product). */
  outsideNavigation: string[];
}

/**
 * Reads every page of an exported folder and follows the links of the site chrome only (the
 * `<header>` with its tab bar, menus and switchers, and the sidebar): a page reached only through
 * in-text links is unreachable for a reader who navigates the site. Hidden pages (noindex),
 * redirect stubs and 404.html are not expected in the navigation.
 */
export async function checkNavReachability(sourceDir: string, siteDir: string): Promise<NavReachability> {
  const declared = await declaredPages(sourceDir);
  const files = (await readdir(siteDir, { recursive: true }))
    .map(String)
    .filter((f) => f.endsWith('.html') && !f.startsWith('_') && f !== '404.html');
  const expected = new Set<string>();
  const reached = new Set<string>();
  for (const file of files) {
    const html = await readFile(join(siteDir, file), 'utf8');
    if (/<meta name="robots" content="noindex/.test(html) || /<meta http-equiv="refresh"/i.test(html)) continue;
    expected.add(file);
    for (const region of chromeRegions(html))
      for (const m of region.matchAll(/<a [^>]*href="([^"#?]+)/g)) {
        const href = m[1];
        if (/^[a-z]+:/i.test(href) || href.startsWith('/')) continue;
        reached.add(relative('.', posix.join(dirname(file), href)));
      }
  }
  const named = [...expected].filter((f) => declared.has(f.replace(/(\/index)?\.html$/, '')));
  return {
    declared: named.length,
    unreachable: named.filter((f) => !reached.has(f)).sort(),
    outsideNavigation: [...expected].filter((f) => !named.includes(f)).sort(),
  };
}

/** Every page path in the `pages` lists and group `root`s of docs.json (or mint.json), at any depth. */
async function declaredPages(sourceDir: string): Promise<Set<string>> {
  const file = ['docs.json', 'mint.json'].map((f) => join(sourceDir, f)).find((f) => existsSync(f));
  const found = new Set<string>();
  if (!file) return found;
  const add = (value: unknown) => {
    if (typeof value !== 'string' || /^(get|post|put|patch|delete|head|options|trace|webhook)\s/i.test(value) || /^[a-z]+:/i.test(value))
      return;
    found.add(value.replace(/^\//, '').replace(/\.mdx?$/, ''));
  };
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pages' && Array.isArray(value)) {
        for (const item of value) {
          if (typeof item === 'string') add(item);
          else walk(item);
        }
      } else if (key === 'root') add(value);
      else walk(value);
    }
  };
  walk(JSON.parse(await readFile(file, 'utf8')).navigation);
  return found;
}

/** The header (up to its end) and the sidebar nav of a page. */
function chromeRegions(html: string): string[] {
  const regions: string[] = [];
  const header = html.indexOf('<header class="enclave-header"');
  if (header >= 0) regions.push(html.slice(header, html.indexOf('</header>', header)));
  const sidebar = html.indexOf('<nav id="enclave-sidebar"');
  if (sidebar >= 0) regions.push(html.slice(sidebar, endOfNav(html, sidebar)));
  return regions;
}

/** Where the `<nav>` opening at `start` closes, nested navs counted. */
function endOfNav(html: string, start: number): number {
  let depth = 0;
  const tags = /<nav[\s>]|<\/nav>/g;
  tags.lastIndex = start;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    depth += m[0] === '</nav>' ? -1 : 1;
    if (depth === 0) return m.index;
  }
  return html.length;
}
