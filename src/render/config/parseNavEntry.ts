import type { NavItem } from './SiteConfig.js';

const METHODS = 'GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE|WEBHOOK';
const OPERATION = new RegExp(`^(?:(\\S+\\.(?:json|ya?ml))\\s+)?(${METHODS})\\s+(\\S+)$`, 'i');

/** Turns a page string from the navigation into a page path (`/a/b.mdx` → `a/b`) or an operation reference. */
export function parseNavEntry(entry: string): NavItem {
  const trimmed = entry.trim();
  const op = OPERATION.exec(trimmed);
  if (op) return { kind: 'operation', spec: op[1]?.replace(/^\//, ''), method: op[2].toUpperCase(), path: op[3] };
  return { kind: 'page', path: normalizePagePath(trimmed) };
}

/** Canonical site path of a page: no leading/trailing slash, no `.md`/`.mdx`, `index` for the root. */
export function normalizePagePath(p: string): string {
  const cleaned = p
    .replace(/^\.?\/+/, '')
    .replace(/\.mdx?$/i, '')
    .replace(/\/+$/, '');
  return cleaned === '' ? 'index' : cleaned;
}

/** Reads an `openapi` config value (string, array, or `{source}` object) as a list of refs. */
export function openapiRefsOf(value: unknown): string[] | undefined {
  const one = (v: unknown): string | undefined => {
    if (typeof v === 'string') return v;
    if (v && typeof v === 'object' && typeof (v as { source?: unknown }).source === 'string') return (v as { source: string }).source;
    return undefined;
  };
  if (value === undefined || value === null) return undefined;
  const list = (Array.isArray(value) ? value : [value]).map(one).filter((v): v is string => !!v);
  return list.map((r) => (/^https?:\/\//i.test(r) ? r : r.replace(/^\.?\//, '')));
}

/** Every `openapi: {source, directory}` in a docs.json value, as ref → directory (refs as openapiRefsOf gives them). */
export function openapiDirectoriesOf(value: unknown, found: Record<string, string> = {}): Record<string, string> {
  if (Array.isArray(value)) for (const v of value) openapiDirectoriesOf(v, found);
  else if (value && typeof value === 'object') {
    const { source, directory } = value as { source?: unknown; directory?: unknown };
    if (typeof source === 'string' && typeof directory === 'string' && directory.trim()) {
      const [ref] = openapiRefsOf(source) ?? [];
      if (ref) found[ref] = directory.trim();
    }
    for (const v of Object.values(value)) openapiDirectoriesOf(v, found);
  }
  return found;
}
