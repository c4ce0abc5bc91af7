import { posix } from 'node:path';
import type { NavDivision, NavGroup, NavItem, SiteConfig } from '../config/SiteConfig.js';
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

/** Slug for generated page paths: lowercase words joined by dashes. */
export function pathSlug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'page'
  );
}

/**
 * Resolves the config's navigation against the files on disk and the OpenAPI documents:
 * operation entries and whole-spec groups become generated pages, entries naming missing files
 * are dropped with a warning, and every page on disk that the navigation doesn't name is still
 * published (outside the sidebar).
 */
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
  const isRemote = (ref: string) => /^https?:\/\//i.test(ref);
  /** The loaded spec a config ref names (refs and loaded keys may differ by a leading folder). */
  const loadedSpec = (ref: string) => catalog.specs().find((s) => s === ref || s.endsWith(`/${ref}`) || ref.endsWith(`/${s}`));

  const fileSource = (rel: string): PageSource => ({ kind: 'file', file: rel, format: rel.toLowerCase().endsWith('.mdx') ? 'mdx' : 'md' });
  const uniquePath = (wanted: string): string => {
    let p = wanted;
    for (let i = 2; pages.has(p) || filePages.has(p); i++) p = `${wanted}-${i}`;
    return p;
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

  const operationPage = (spec: string, op: OperationInfo, tagged: boolean): string => {
    const key = `${spec}\0${op.method.toUpperCase()}\0${op.path}`;
    const existing = generatedByKey.get(key);
    if (existing) return existing;
    // A remote spec's pages go where the hosted product puts generated pages by default.
    const dir = isRemote(spec) ? 'api-reference' : posix.dirname(spec) === '.' ? '' : posix.dirname(spec);
    const name = pathSlug(op.summary ?? op.operationId ?? `${op.method} ${op.path}`);
    const tag = tagged && op.tags?.[0] ? pathSlug(op.tags[0]) : '';
    const path = uniquePath([dir, tag, name].filter(Boolean).join('/'));
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
        byTag.get(tag)!.push({ kind: 'page', path: operationPage(spec, op, true) });
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
        out.push({ kind: 'page', path: operationPage(found.spec, found.op, false) });
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
