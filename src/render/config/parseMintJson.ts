import type { NavDivision, NavGroup, NavItem, SiteConfig, SiteLink } from './SiteConfig.js';
import { parseItems, parseLogo, parseRedirects } from './parseDocsJson.js';
import { openapiRefsOf } from './parseNavEntry.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const isExternal = (u: string) => /^[a-z][a-z0-9+.-]*:/i.test(u);

/**
 * Normalises a legacy mint.json. Its tabs and internal anchors select groups by URL prefix:
 * a group belongs to the tab whose `url` prefixes the group's first page; the rest belong to
 * the primary tab.
 */
// size: one field after another of mint.json, each mapped where it is read; a flat list
export function parseMintJson(raw: unknown, warn: (message: string) => void): SiteConfig {
  if (!isObj(raw)) throw new Error('mint.json must contain a JSON object');
  const refs = new Set<string>(openapiRefsOf(raw.openapi) ?? []);
  const groups = parseItems(Array.isArray(raw.navigation) ? raw.navigation : [], refs, warn);

  const tabDefs = (Array.isArray(raw.tabs) ? raw.tabs : [])
    .filter(isObj)
    .flatMap((t) => (str(t.url) ? [{ label: str(t.name) ?? String(t.url), url: String(t.url), external: isExternal(String(t.url)) }] : []));
  const anchorDefs = (Array.isArray(raw.anchors) ? raw.anchors : [])
    .filter(isObj)
    .flatMap((a) =>
      str(a.url) ? [{ label: str(a.name) ?? String(a.url), url: String(a.url), icon: str(a.icon), openapi: openapiRefsOf(a.openapi) }] : [],
    );
  // An anchor's spec (often a URL) fills the anchor with its operations, as a docs.json anchor's does.
  for (const a of anchorDefs) for (const r of a.openapi ?? []) refs.add(r);
  const prefixTabs = [
    ...tabDefs.filter((t) => !t.external).map((t) => ({ ...t, openapi: undefined as string[] | undefined })),
    ...anchorDefs.filter((a) => !isExternal(a.url) || a.openapi).map((a) => ({ ...a, external: false })),
  ].map((t) => ({ ...t, prefix: t.url.replace(/^\/+|\/+$/g, '') }));

  const root: NavDivision = { kind: 'root', label: '', divisions: [], items: [] };
  const withSpec = (t: { openapi?: string[] }): boolean => (t.openapi?.length ?? 0) > 0;
  if (prefixTabs.length === 0) {
    root.items = groups;
  } else {
    // `topAnchor` names the default section when the site's other sections are anchors.
    const primaryTab =
      (isObj(raw.primaryTab) ? str(raw.primaryTab.name) : undefined) ?? (isObj(raw.topAnchor) ? str(raw.topAnchor.name) : undefined);
    const primary: NavDivision = { kind: 'tab', label: primaryTab ?? 'Documentation', divisions: [], items: [] };
    const tabs = prefixTabs.map(
      (t): NavDivision => ({ kind: 'tab', label: t.label, divisions: [], items: [], ...(withSpec(t) ? { openapi: t.openapi } : {}) }),
    );
    for (const group of groups) {
      const first = firstPage(group);
      // Longest prefix wins so nested tab URLs (`api` vs `api/v2`) pick the most specific tab.
      let best = -1;
      prefixTabs.forEach((t, i) => {
        if (
          first &&
          (first === t.prefix || first.startsWith(`${t.prefix}/`)) &&
          (best < 0 || t.prefix.length > prefixTabs[best].prefix.length)
        )
          best = i;
      });
      (best >= 0 ? tabs[best] : primary).items.push(group);
    }
    root.divisions = [primary, ...tabs].filter((d) => d.items.length > 0 || withSpec(d));
  }
  for (const t of tabDefs.filter((d) => d.external))
    root.divisions.push({ kind: 'tab', label: t.label, href: t.url, divisions: [], items: [] });

  const colors = isObj(raw.colors) ? raw.colors : {};
  const bg = isObj(colors.background) ? colors.background : {};
  const cta = isObj(raw.topbarCtaButton) ? raw.topbarCtaButton : undefined;
  const modeToggle = isObj(raw.modeToggle) ? raw.modeToggle : {};
  const socials = raw.footerSocials;
  const footerSocials: SiteLink[] = isObj(socials)
    ? Object.entries(socials)
        .filter(([, v]) => str(v))
        .map(([k, v]) => ({ label: k, href: String(v), icon: k }))
    : (Array.isArray(socials) ? socials : [])
        .filter(isObj)
        .flatMap((s) => (str(s.url) && str(s.type) ? [{ label: String(s.type), href: String(s.url), icon: String(s.type) }] : []));
  return {
    configFile: 'mint.json',
    name: str(raw.name) ?? 'Documentation',
    colors: {
      primary: str(colors.primary) ?? '#0D9373',
      light: str(colors.light),
      dark: str(colors.dark),
      background: { light: str(bg.light), dark: str(bg.dark) },
    },
    logo: parseLogo(raw.logo),
    favicon: str(raw.favicon),
    navbarLinks: (Array.isArray(raw.topbarLinks) ? raw.topbarLinks : [])
      .filter(isObj)
      .flatMap((l) =>
        str(l.url) ? [{ label: str(l.name) ?? (l.type === 'github' ? 'GitHub' : String(l.url)), href: String(l.url) }] : [],
      ),
    navbarPrimary:
      cta && str(cta.url) ? { label: str(cta.name) ?? (cta.type === 'github' ? 'GitHub' : 'Open'), href: String(cta.url) } : undefined,
    globalLinks: anchorDefs.filter((a) => isExternal(a.url) && !a.openapi).map((a) => ({ label: a.label, href: a.url, icon: a.icon })),
    footerSocials,
    footerLinks: [],
    redirects: parseRedirects(raw.redirects),
    navigation: root,
    iconLibrary: 'fontawesome',
    appearance: {
      default: modeToggle.default === 'dark' || modeToggle.default === 'light' ? modeToggle.default : 'system',
      strict: modeToggle.isHidden === true,
    },
    fonts: [],
    metatags: isObj(raw.metadata)
      ? (Object.fromEntries(Object.entries(raw.metadata).filter(([, v]) => typeof v === 'string')) as Record<string, string>)
      : {},
    openapiRefs: [...refs],
    seoIndexing: 'navigable',
    // mint.json predates theme names; its sites looked like today's default.
    theme: 'mint',
  };
}

/** The first page path inside a group (depth first), used to place the group in a tab. */
function firstPage(item: NavItem): string | undefined {
  if (item.kind === 'page') return item.path;
  if (item.kind !== 'group') return undefined;
  for (const child of (item as NavGroup).items) {
    const p = firstPage(child);
    if (p) return p;
  }
  return undefined;
}
