import {
  SITE_THEMES,
  type DivisionKind,
  type NavDivision,
  type NavItem,
  type SiteConfig,
  type SiteLink,
  type SiteTheme,
} from './SiteConfig.js';
import { languageName } from './languageName.js';
import { normalizePagePath, openapiDirectoriesOf, openapiRefsOf, parseNavEntry } from './parseNavEntry.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** The navigation dimensions of docs.json, each with the key that carries its label. */
const DIMENSIONS: { key: string; kind: DivisionKind; label: string }[] = [
  { key: 'tabs', kind: 'tab', label: 'tab' },
  { key: 'menu', kind: 'menu', label: 'item' },
  { key: 'anchors', kind: 'anchor', label: 'anchor' },
  { key: 'dropdowns', kind: 'dropdown', label: 'dropdown' },
  { key: 'products', kind: 'product', label: 'product' },
  { key: 'versions', kind: 'version', label: 'version' },
  { key: 'languages', kind: 'language', label: 'language' },
];

/** Normalises a (ref-expanded) docs.json object. Unknown keys are ignored, wrong types fall back to defaults. */
// size: one field after another of docs.json, each normalised where it is read; a flat list
export function parseDocsJson(raw: unknown, warn: (message: string) => void): SiteConfig {
  if (!isObj(raw)) throw new Error('docs.json must contain a JSON object');
  const openapiRefs = new Set<string>();
  const nav = isObj(raw.navigation) ? raw.navigation : Array.isArray(raw.navigation) ? { groups: raw.navigation } : {};
  const navigation = parseDivision(nav, 'root', '', openapiRefs, warn);
  for (const r of openapiRefsOf(raw.openapi) ?? []) openapiRefs.add(r);
  const globalLinks = parseGlobalLinks(nav.global) ?? [];
  const colors = isObj(raw.colors) ? raw.colors : {};
  const background = isObj(raw.background) && isObj(raw.background.color) ? raw.background.color : {};
  const navbar = isObj(raw.navbar) ? raw.navbar : {};
  const footer = isObj(raw.footer) ? raw.footer : {};
  const appearance = isObj(raw.appearance) ? raw.appearance : {};
  const seo = isObj(raw.seo) ? raw.seo : {};
  const icons = isObj(raw.icons) ? raw.icons : {};
  const primary = isObj(navbar.primary) ? navbar.primary : undefined;
  return {
    configFile: 'docs.json',
    name: str(raw.name) ?? 'Documentation',
    description: str(raw.description),
    colors: {
      primary: str(colors.primary) ?? '#0D9373',
      light: str(colors.light),
      dark: str(colors.dark),
      background: { light: str(background.light), dark: str(background.dark) },
    },
    logo: parseLogo(raw.logo),
    favicon:
      isObj(raw.favicon) && str(raw.favicon.light)
        ? { light: String(raw.favicon.light), dark: str(raw.favicon.dark) ?? String(raw.favicon.light) }
        : str(raw.favicon),
    navbarLinks: (Array.isArray(navbar.links) ? navbar.links : []).filter(isObj).flatMap((l) => {
      const href = str(l.href) ?? str(l.url);
      return href ? [{ label: str(l.label) ?? str(l.name) ?? href, href, icon: iconName(l.icon) }] : [];
    }),
    navbarPrimary:
      primary && (str(primary.href) || str(primary.url))
        ? { label: str(primary.label) ?? (primary.type === 'github' ? 'GitHub' : 'Open'), href: String(primary.href ?? primary.url) }
        : undefined,
    globalLinks,
    footerSocials: isObj(footer.socials)
      ? Object.entries(footer.socials)
          .filter(([, v]) => str(v))
          .map(([k, v]) => ({ label: k, href: String(v), icon: k }))
      : [],
    footerLinks: (Array.isArray(footer.links) ? footer.links : []).filter(isObj).map((col) => ({
      header: str(col.header),
      items: (Array.isArray(col.items) ? col.items : [])
        .filter(isObj)
        .flatMap((i) => (str(i.href) ? [{ label: str(i.label) ?? String(i.href), href: String(i.href) }] : [])),
    })),
    redirects: parseRedirects(raw.redirects),
    navigation,
    iconLibrary: str(icons.library) ?? 'fontawesome',
    appearance: {
      default: appearance.default === 'dark' || appearance.default === 'light' ? appearance.default : 'system',
      strict: appearance.strict === true,
    },
    fonts: parseFonts(raw.fonts),
    metatags: isObj(seo.metatags)
      ? (Object.fromEntries(Object.entries(seo.metatags).filter(([, v]) => typeof v === 'string')) as Record<string, string>)
      : {},
    openapiRefs: [...openapiRefs],
    openapiDirectories: openapiDirectoriesOf([raw.openapi, nav]),
    seoIndexing: seo.indexing === 'all' ? 'all' : 'navigable',
    theme: parseTheme(raw.theme, warn),
  };
}

/** Parses one navigation level (the root or any tab/anchor/version/…) recursively. */
function parseDivision(node: Obj, kind: DivisionKind, label: string, refs: Set<string>, warn: (m: string) => void): NavDivision {
  const division: NavDivision = {
    kind,
    label,
    icon: iconName(node.icon),
    href: str(node.href),
    isDefault: node.default === true,
    hidden: node.hidden === true,
    divisions: [],
    items: [],
  };
  // A language (or any division) may carry its own `global` anchors, shown on its pages.
  if (kind !== 'root') division.globalLinks = parseGlobalLinks(node.global);
  const openapi = openapiRefsOf(node.openapi);
  if (openapi) {
    division.openapi = openapi;
    for (const r of openapi) refs.add(r);
  }
  for (const dim of DIMENSIONS) {
    const list = node[dim.key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      warn(`navigation.${dim.key} should be an array`);
      continue;
    }
    for (const child of list) {
      if (!isObj(child)) continue;
      const childLabel = str(child[dim.label]) ?? str(child.name) ?? dim.label;
      const parsed = parseDivision(child, dim.kind, dim.kind === 'language' ? languageName(childLabel) : childLabel, refs, warn);
      if (dim.kind === 'language') parsed.code = childLabel;
      division.divisions.push(parsed);
    }
  }
  for (const key of ['groups', 'pages'] as const) {
    const list = node[key];
    if (Array.isArray(list)) division.items.push(...parseItems(list, refs, warn));
  }
  return division;
}

/** A `global` object's links (anchors, tabs, … that have an `href`), or undefined when there are none. */
function parseGlobalLinks(global: unknown): SiteLink[] | undefined {
  if (!isObj(global)) return undefined;
  const links: SiteLink[] = [];
  for (const dim of DIMENSIONS) {
    for (const d of Array.isArray(global[dim.key]) ? (global[dim.key] as unknown[]) : []) {
      if (isObj(d) && str(d.href))
        links.push({ label: str(d[dim.label]) ?? str(d.name) ?? String(d.href), href: String(d.href), icon: iconName(d.icon) });
    }
  }
  return links.length ? links : undefined;
}

/** Parses a `pages`/`groups` array: strings are pages or operations, objects are groups. */
export function parseItems(list: unknown[], refs: Set<string>, warn: (m: string) => void): NavItem[] {
  const items: NavItem[] = [];
  for (const entry of list) {
    if (typeof entry === 'string') {
      if (entry.trim()) items.push(parseNavEntry(entry));
    } else if (isObj(entry) && (typeof entry.group === 'string' || Array.isArray(entry.pages) || entry.openapi !== undefined)) {
      const openapi = openapiRefsOf(entry.openapi);
      for (const r of openapi ?? []) refs.add(r);
      items.push({
        kind: 'group',
        title: String(entry.group ?? ''),
        icon: iconName(entry.icon),
        expanded: entry.expanded === true,
        hidden: entry.hidden === true,
        ...(entry.public === true ? { public: true } : {}),
        root: typeof entry.root === 'string' ? normalizePagePath(entry.root) : undefined,
        openapi,
        items: Array.isArray(entry.pages) ? parseItems(entry.pages, refs, warn) : [],
      });
    } else if (isObj(entry) && typeof entry.href === 'string') {
      items.push({ kind: 'link', title: str(entry.title) ?? str(entry.label) ?? entry.href, href: entry.href, icon: iconName(entry.icon) });
    } else {
      warn(`ignored navigation entry ${JSON.stringify(entry).slice(0, 80)}`);
    }
  }
  return items;
}

/** Reads `logo` given as a string or `{light, dark, href}`. */
export function parseLogo(v: unknown): SiteConfig['logo'] {
  if (typeof v === 'string' && v) return { light: v, dark: v };
  if (isObj(v) && (str(v.light) || str(v.dark))) {
    const light = str(v.light) ?? String(v.dark);
    return { light, dark: str(v.dark) ?? light, href: str(v.href) };
  }
  return undefined;
}

/** Reads the `redirects` list, keeping well-formed entries only. */
export function parseRedirects(v: unknown): SiteConfig['redirects'] {
  return (Array.isArray(v) ? v : [])
    .filter(isObj)
    .flatMap((r) =>
      str(r.source) && str(r.destination)
        ? [{ source: String(r.source), destination: String(r.destination), permanent: r.permanent !== false }]
        : [],
    );
}

/** Icons may be a name or `{name, style}`. */
function iconName(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (isObj(v) && typeof v.name === 'string') return v.name;
  return undefined;
}

/** Reads `fonts` (`{family, source}` or `{heading, body}`), keeping local sources only. */
function parseFonts(v: unknown): SiteConfig['fonts'] {
  if (!isObj(v)) return [];
  const list = [v, v.heading, v.body].filter(isObj);
  return list.flatMap((f) =>
    str(f.family)
      ? [
          {
            family: String(f.family),
            source: str(f.source),
            weight: typeof f.weight === 'number' ? f.weight : undefined,
            format: str(f.format),
          },
        ]
      : [],
  );
}

/** docs.json `theme`: a known name, else `mint` (with a warning naming what was there). */
function parseTheme(value: unknown, warn: (m: string) => void): SiteTheme {
  if (value === undefined) return 'mint';
  const name = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if ((SITE_THEMES as readonly string[]).includes(name)) return name as SiteTheme;
  warn(`docs.json theme ${JSON.stringify(value)} is not one of ${SITE_THEMES.join(', ')}; using mint`);
  return 'mint';
}
