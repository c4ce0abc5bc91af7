import type { NavDivision, NavGroup, NavItem, SiteConfig } from '../config/SiteConfig.js';
import { normalizePagePath } from '../config/parseNavEntry.js';
import type { OpenApiOperationSummary } from '../openapi/OpenApiDocument.js';

/** One operation of a loaded OpenAPI document. */
export type OperationInfo = OpenApiOperationSummary;

/** Where a page's content comes from. */
export type PageSource =
  | { kind: 'file'; file: string; format: 'md' | 'mdx' }
  | { kind: 'operation'; spec: string; method: string; path: string; title: string; deprecated?: boolean };

/** A page of the site, whether it is in the navigation or not. */
export interface SitePage {
  path: string;
  source: PageSource;
  inNav: boolean;
}

/** The navigation chain that leads to a page (for tabs, switchers and breadcrumbs). */
export interface NavLocation {
  divisions: NavDivision[];
  groups: string[];
}

/**
 * Something the navigation declares that this export could not turn into pages: a remote
 * OpenAPI spec without a local copy, or a page file that isn't there. `pages` names the nav
 * entries lost (`GET /users`, `guides/x`); a whole-spec entry lost with its spec counts as one.
 */
export interface MissingInput {
  input: string;
  reason: string;
  pages: string[];
}

/** The resolved site structure. */
export interface ResolvedNavigation {
  root: NavDivision;
  /** What the navigation declares but could not be generated, by input (see MissingInput). */
  missing: MissingInput[];
  pages: Map<string, SitePage>;
  /** Pages in navigation order (first occurrence), for prev/next and the home fallback. */
  order: string[];
  locations: Map<string, NavLocation>;
}

/** Looks up operations across the loaded OpenAPI documents. */
export interface OperationCatalog {
  specs(): string[];
  operations(spec: string): OperationInfo[];
}

/**
 * A summary or tag as a URL segment, as Mintlify converts them: each space a hyphen, `{}(),.'/`
 * removed, lowercased; other characters (`&`, non-ASCII letters) stay. Characters a file name or
 * a relative link can't carry as written (`?#%:*"<>|\`) are removed too, where Mintlify keeps some.
 */
export function pathSlug(s: string): string {
  return (
    s
      .trim()
      .replace(/\s/g, '-')
      .replace(/[{}(),.'/?#%:*"<>|\\\u0000-\u001f]/g, '')
      .toLowerCase()
      .slice(0, 120) || 'page'
  );
}

/** An operation's slug without a summary: the method and the path's fixed segments (`GET /users/{id}/posts` → `get-users-posts`). */
function methodPathSlug(method: string, path: string): string {
  return pathSlug([method, ...path.split('/').filter((s) => s && !/^\{.*\}$/.test(s))].join(' '));
}

/**
 * Resolves the config's navigation against the files on disk and the OpenAPI documents:
 * operation entries and whole-spec groups become generated pages, entries naming missing files
 * are dropped with a warning, and every page on disk that the navigation doesn't name is still
 * published (outside the sidebar).
 */
// size: walks the navigation tree (tabs, anchors, groups, pages) with shared state: seen pages, warnings, the current tab
export function resolveNavigation(
  config: SiteConfig,
  filePages: Map<string, string>,
  catalog: OperationCatalog,
  warn: (message: string, page?: string) => void,
): ResolvedNavigation {
  const pages = new Map<string, SitePage>();
  const order: string[] = [];
  const locations = new Map<string, NavLocation>();
  const generatedByKey = new Map<string, string>();
  const missingByInput = new Map<string, MissingInput>();
  const lose = (input: string, reason: string, entry: string) => {
    const m = missingByInput.get(input) ?? { input, reason, pages: [] };
    missingByInput.set(input, m);
    if (!m.pages.includes(entry)) m.pages.push(entry);
  };
  /** The loaded spec a config ref names (refs and loaded keys may differ by a leading folder). */
  const loadedSpec = (ref: string) => catalog.specs().find((s) => s === ref || s.endsWith(`/${ref}`) || ref.endsWith(`/${s}`));

  const fileSource = (rel: string): PageSource => ({ kind: 'file', file: rel, format: rel.toLowerCase().endsWith('.mdx') ? 'mdx' : 'md' });
  // A clash gets -1, -2, … on the later pages, as Mintlify numbers duplicate endpoint URLs.
  const uniquePath = (wanted: string): string => {
    let p = wanted;
    for (let i = 1; pages.has(p) || filePages.has(p); i++) p = `${wanted}-${i}`;
    return p;
  };
  const directories = config.openapiDirectories ?? {};
  /** The folder a spec's generated pages go in: its `directory`, else `api-reference`. */
  const directoryOf = (spec: string): string => {
    const ref = Object.keys(directories).find((r) => r === spec || loadedSpec(r) === spec);
    return (ref ? directories[ref] : 'api-reference').toLowerCase().replace(/^\/+|\/+$/g, '');
  };

  /** Finds an operation in the loaded spec `spec` (a catalog key), or in any spec without one. */
  const findOperation = (method: string, path: string, spec?: string): { spec: string; op: OperationInfo } | undefined => {
    const specs = spec === undefined ? catalog.specs() : [spec];
    for (const spec of specs) {
      const op = catalog.operations(spec).find((o) => o.method.toUpperCase() === method && o.path === path);
      if (op) return { spec, op };
    }
    return undefined;
  };

  const operationPage = (spec: string, op: OperationInfo): string => {
    const key = `${spec}\0${op.method.toUpperCase()}\0${op.path}`;
    const existing = generatedByKey.get(key);
    if (existing) return existing;
    // Mintlify's URL for a generated endpoint page, nav-level entry or whole spec alike:
    // <directory (default api-reference)>/<first tag>/<summary, else method and path>, or the
    // operation's `x-mint: { href }` (docs: mintlify.com/docs/api-playground/endpoint-urls and
    // …/openapi-setup#href).
    const href = op.href ? normalizePagePath(op.href.replace(/[?#].*$/, '')) : undefined;
    if (href && filePages.has(href)) {
      // Documented by a page of its own: the nav entry leads there.
      if (!pages.has(href)) pages.set(href, { path: href, inNav: true, source: fileSource(filePages.get(href)!) });
      generatedByKey.set(key, href);
      return href;
    }
    const name = op.summary?.trim() ? pathSlug(op.summary) : methodPathSlug(op.method, op.path);
    const tag = op.tags?.[0] ? pathSlug(op.tags[0]) : '';
    const path = uniquePath(href ?? [directoryOf(spec), tag, name].filter(Boolean).join('/'));
    generatedByKey.set(key, path);
    pages.set(path, {
      path,
      inNav: true,
      source: {
        kind: 'operation',
        spec,
        method: op.method.toUpperCase(),
        path: op.path,
        title: op.summary ?? op.operationId ?? `${op.method.toUpperCase()} ${op.path}`,
        deprecated: op.deprecated,
      },
    });
    return path;
  };

  /** Whole-spec generation: one group per first tag (untagged operations go in a plain group). */
  const specGroups = (refs: string[]): NavItem[] => {
    const byTag = new Map<string, NavItem[]>();
    for (const ref of refs) {
      const spec = loadedSpec(ref);
      if (!spec) {
        warn(`OpenAPI file ${ref} could not be loaded; its pages were skipped`);
        lose(ref, specLossReason(ref), `all operations of ${ref}`);
        continue;
      }
      for (const op of catalog.operations(spec)) {
        const tag = op.tags?.[0] ?? 'Endpoints';
        if (!byTag.has(tag)) byTag.set(tag, []);
        byTag.get(tag)!.push({ kind: 'page', path: operationPage(spec, op) });
      }
    }
    return [...byTag].map(([title, items]): NavGroup => ({ kind: 'group', title, items }));
  };

  const resolveItems = (items: NavItem[], specContext: string[] | undefined): NavItem[] => {
    const out: NavItem[] = [];
    for (const item of items) {
      if (item.kind === 'page') {
        const rel = filePages.get(item.path);
        if (!rel) {
          warn(`navigation names page "${item.path}" but no such .mdx/.md file exists`);
          lose(`${item.path}.mdx`, 'no such .mdx/.md file in the source', item.path);
          continue;
        }
        if (!pages.has(item.path)) pages.set(item.path, { path: item.path, inNav: true, source: fileSource(rel) });
        out.push(item);
      } else if (item.kind === 'operation') {
        const entry = `${item.method} ${item.path}`;
        const named = item.spec ? [item.spec] : (specContext ?? []);
        const loaded = named.flatMap((ref) => loadedSpec(ref) ?? []);
        // The spec this entry belongs to is not here (remote without a local copy, or unreadable):
        // its page is lost, and said so, rather than taken from some other spec that has the path.
        if (named.length > 0 && loaded.length === 0) {
          lose(named[0], specLossReason(named[0]), entry);
          continue;
        }
        let found: { spec: string; op: OperationInfo } | undefined;
        for (const spec of loaded) found ??= findOperation(item.method, item.path, spec);
        found ??= findOperation(item.method, item.path);
        if (!found) {
          warn(`navigation names operation ${entry} but no loaded OpenAPI file defines it`);
          lose(entry, 'no loaded OpenAPI file defines this operation', entry);
          continue;
        }
        out.push({ kind: 'page', path: operationPage(found.spec, found.op) });
      } else if (item.kind === 'group') {
        const ctxSpecs = item.openapi ?? specContext;
        let children = resolveItems(item.items, ctxSpecs);
        if (item.openapi && item.items.length === 0)
          children = specGroups(item.openapi).flatMap((g) => (g.kind === 'group' ? g.items : [g]));
        if (item.root && filePages.has(item.root) && !pages.has(item.root))
          pages.set(item.root, { path: item.root, inNav: true, source: fileSource(filePages.get(item.root)!) });
        out.push({ ...item, items: children });
      } else out.push(item);
    }
    return out;
  };

  const resolveDivision = (d: NavDivision, specContext: string[] | undefined): NavDivision => {
    const ctxSpecs = d.openapi ?? specContext;
    let items = resolveItems(d.items, ctxSpecs);
    if (d.openapi && d.items.length === 0 && d.divisions.length === 0) items = specGroups(d.openapi);
    return { ...d, items, divisions: d.divisions.map((c) => resolveDivision(c, ctxSpecs)) };
  };

  const root = resolveDivision(config.navigation, undefined);
  // A spec named only at the top (mint.json's `openapi`, docs.json's `api.openapi`) loses no nav
  // entry, but the pages that name its operations in frontmatter show none: still a missing input.
  for (const ref of config.openapiRefs)
    if (!loadedSpec(ref) && !missingByInput.has(ref))
      missingByInput.set(ref, {
        input: ref,
        reason: `${specLossReason(ref)}; pages that name its operations render without them`,
        pages: [],
      });

  const walk = (d: NavDivision, chain: NavDivision[]) => {
    const here = d.kind === 'root' ? chain : [...chain, d];
    const visitItems = (items: NavItem[], groups: string[]) => {
      for (const item of items) {
        if (item.kind === 'page') {
          if (!locations.has(item.path)) {
            locations.set(item.path, { divisions: here, groups });
            order.push(item.path);
          }
        } else if (item.kind === 'group') {
          if (item.root && !locations.has(item.root)) {
            locations.set(item.root, { divisions: here, groups: [...groups, item.title] });
            order.push(item.root);
          }
          visitItems(item.items, [...groups, item.title]);
        }
      }
    };
    visitItems(d.items, []);
    for (const child of d.divisions) walk(child, here);
  };
  walk(root, []);

  for (const [path, rel] of filePages) {
    if (!pages.has(path)) pages.set(path, { path, inNav: false, source: fileSource(rel) });
  }
  return { root, pages, order, locations, missing: [...missingByInput.values()] };
}

function specLossReason(ref: string): string {
  return /^https?:\/\//i.test(ref)
    ? 'remote OpenAPI spec: not fetched offline, and no local copy in the source (same file name, or openapi/<host>/<path>)'
    : 'OpenAPI file missing or unreadable';
}
