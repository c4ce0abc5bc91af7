import type { SiteConfig } from '../config/SiteConfig.js';
import { loadSiteConfig } from '../config/loadSiteConfig.js';
import { normalizePagePath } from '../config/parseNavEntry.js';
import type { SiteIndex } from '../links/SiteIndex.js';
import type { Frontmatter } from '../mdx/readFrontmatter.js';
import { resolveNavigation, type OperationInfo, type ResolvedNavigation, type SitePage } from '../nav/resolveNavigation.js';
import { listOperations, loadOpenApiDocuments, type OpenApiDocument } from '../openapi/index.js';
import type { ReportCollector } from '../types.js';
import { classifySourceFiles, type SourceInventory } from '../source/classifySourceFiles.js';
import type { DocsSource } from '../source/readDocsSource.js';
import { expandRedirects } from './expandRedirects.js';

/** Everything known about the site before any page renders. */
export interface LoadedSite {
  config: SiteConfig;
  inventory: SourceInventory;
  nav: ResolvedNavigation;
  frontmatter: Map<string, Frontmatter>;
  /** Text of every page and snippet file as the source read found it (see DocsSource.texts). */
  texts: ReadonlyMap<string, string>;
  openapi: Map<string, OpenApiDocument>;
  operations: Map<string, OperationInfo[]>;
  /** Pages this export renders, in a stable order (navigation order first). */
  selected: SitePage[];
  index: SiteIndex;
  /** Literal redirect sources (page-path form) → destination as written. */
  redirects: Map<string, string>;
}

/**
 * Reads the config, takes every page's frontmatter from the source's read (the sidebar needs all
 * titles before the first page renders), loads OpenAPI files and resolves the navigation.
 */
export async function loadSite(sourceDir: string, source: DocsSource, report: ReportCollector, paths?: string[]): Promise<LoadedSite> {
  const warn = (message: string, page?: string) => report.warning(message, page);
  const config = await loadSiteConfig(sourceDir, warn);
  const inventory = classifySourceFiles(source.files);

  const frontmatter = new Map<string, Frontmatter>();
  const specHints = new Set<string>();
  for (const [path, rel] of inventory.pages) {
    // Parsed as the source was read (or recorded, for a file that was not read): see readDocsSource.
    const facts = source.facts.get(rel);
    for (const m of facts?.warnings ?? []) warn(m, path);
    const fm = facts?.frontmatter ?? {};
    frontmatter.set(path, fm);
    const hint = fm.openapi ? /^(\S+\.(?:json|ya?ml))\s/i.exec(fm.openapi.trim())?.[1] : undefined;
    if (hint) specHints.add(hint.replace(/^\.?\//, ''));
  }

  const refs = [...new Set([...config.openapiRefs, ...inventory.openapiFiles, ...specHints])];
  const openapi = refs.length ? await loadOpenApiDocuments(sourceDir, refs, report, source.files) : new Map<string, OpenApiDocument>();
  const operations = new Map<string, OperationInfo[]>();
  for (const [key, doc] of openapi) operations.set(key, listOperations(doc));
  const nav = resolveNavigation(
    config,
    inventory.pages,
    { specs: () => [...operations.keys()], operations: (s) => operations.get(s) ?? [] },
    warn,
  );

  let selected = [...nav.order.map((p) => nav.pages.get(p)!), ...[...nav.pages.values()].filter((p) => !nav.locations.has(p.path))];
  if (paths) {
    const wanted = new Set(paths.map(normalizePagePath));
    for (const w of wanted) if (!nav.pages.has(w)) warn(`requested path /${w === 'index' ? '' : w} is not a page of this site`);
    selected = selected.filter((p) => wanted.has(p.path));
  }

  const redirects = new Map<string, string>();
  for (const r of expandRedirects(
    config.redirects,
    selected.map((p) => p.path),
    warn,
  )) {
    const source = normalizePagePath(r.source.replace(/[?#].*$/, ''));
    if (nav.pages.has(source)) {
      if (!/[:*]/.test(r.source)) warn(`redirect ${r.source} is shadowed by a page at the same path`);
      continue;
    }
    if (!redirects.has(source)) redirects.set(source, r.destination);
  }

  // Without an `index` page, the home URL forwards to the first page (the hosted product does the same).
  if (!selected.some((p) => p.path === 'index') && selected.length > 0 && !redirects.has('index'))
    redirects.set('index', `/${selected[0].path}`);

  const index: SiteIndex = {
    pages: new Set(selected.map((p) => p.path)),
    redirects: new Set(redirects.keys()),
    files: new Set(inventory.staticFiles),
  };
  return { config, inventory, nav, frontmatter, texts: source.texts, openapi, operations, selected, index, redirects };
}
