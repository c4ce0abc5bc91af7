import type { NavDivision } from '../config/SiteConfig.js';
import { resolveLink } from '../links/resolveLink.js';
import type { SitePage } from '../nav/resolveNavigation.js';
import { canonicalUrl } from '../output/buildSitemap.js';
import { titleFromPath, type RenderedContent } from '../page/renderPageContent.js';
import { escapeHtml } from '../theme/escapeHtml.js';
import { renderPageShell, type ShellPage, type ShellSite } from '../theme/renderPageShell.js';
import { divisionHref, renderSidebarTemplate, ROOT_MARK, sidebarForPage, type SidebarTemplate } from '../theme/renderSidebar.js';
import type { ThemeAssets } from '../theme/prepareThemeAssets.js';
import type { LoadedSite } from './loadSite.js';
import { isRemoteUrl } from '../offline/isRemoteUrl.js';

/** The theme pieces shared by all pages of one export, with per-division caches. */
export interface ShellParts {
  site: ShellSite;
  label(path: string): string;
  rootPrefix(path: string): string;
  page(page: SitePage, content: RenderedContent, contentHtml: string, extra: { styles: string[]; scripts: string[] }): ShellPage;
  errorPage(page: SitePage, title: string, reason: string): string;
  notFoundPage(): string;
  emptySite(): string;
}

/** Builds the shell parts: site header/footer links made root-relative, sidebars cached per division, prev/next order. */
export function createShellParts(
  loaded: LoadedSite, theme: ThemeAssets, searchIndex: string,
  opts: { domain: string; generatorVersion: string; feedbackEndpoint?: string | null; droppedScripts?: readonly string[]; keepRemote?: boolean },
): ShellParts {
  const { config, nav, frontmatter, index } = loaded;
  const selected = new Set(loaded.selected.map((p) => p.path));
  const fromRoot = (href: string) => {
    const r = resolveLink(href, 'index', index);
    return r.kind === 'external' || r.kind === 'anchor' ? escapeHtml(r.href) : `${ROOT_MARK}${escapeHtml(r.href)}`;
  };
  const asset = (src: string) => (/^(?:[a-z]+:)?\/\//i.test(src) || src.startsWith('data:') ? escapeHtml(src) : `${ROOT_MARK}${escapeHtml(src.replace(/^\.?\/+/, ''))}`);
  const favicon = offlineShellAsset(typeof config.favicon === 'string' ? config.favicon : config.favicon?.light, opts.keepRemote);
  const logo = config.logo && offlineShellAsset(config.logo.light, opts.keepRemote) && offlineShellAsset(config.logo.dark, opts.keepRemote) ? config.logo : undefined;

  const site: ShellSite = {
    name: config.name,
    lang: 'en',
    logo: logo ? { light: asset(logo.light), dark: asset(logo.dark) } : undefined,
    favicon: favicon ? asset(favicon) : undefined,
    navbarLinks: config.navbarLinks.map((l) => ({ label: l.label, href: fromRoot(l.href) })),
    navbarPrimary: config.navbarPrimary ? { label: config.navbarPrimary.label, href: fromRoot(config.navbarPrimary.href) } : undefined,
    footerSocials: config.footerSocials.map((l) => ({ label: l.label, href: fromRoot(l.href) })),
    footerLinks: config.footerLinks.map((c) => ({ header: c.header, items: c.items.map((i) => ({ label: i.label, href: fromRoot(i.href) })) })),
    appearance: config.appearance,
    theme: config.theme,
    styles: [...theme.styles, ...loaded.inventory.customCss],
    headScripts: theme.headScripts,
    bodyScripts: [...theme.bodyScripts, ...loaded.inventory.customJs.filter((rel) => !opts.droppedScripts?.includes(rel))],
    themeScript: theme.themeScript,
    searchIndex,
    generator: `Enclave ${opts.generatorVersion}`,
    feedbackEndpoint: opts.feedbackEndpoint,
  };

  const label = (path: string): string => {
    const fm = frontmatter.get(path);
    const page = nav.pages.get(path);
    if (page?.source.kind === 'operation') return page.source.title;
    return fm?.sidebarTitle ?? fm?.title ?? titleFromPath(path);
  };
  const hidden = (path: string) => frontmatter.get(path)?.hidden === true || !selected.has(path);
  const labels = {
    label, hidden,
    method: (path: string) => {
      const s = nav.pages.get(path)?.source;
      if (s?.kind === 'operation') return s.method;
      const api = frontmatter.get(path)?.openapi ?? (typeof frontmatter.get(path)?.api === 'string' ? String(frontmatter.get(path)?.api) : undefined);
      return api ? /(?:^|\s)([A-Za-z]+)\s+\S+$/.exec(api.trim())?.[1]?.toUpperCase() : undefined;
    },
  };

  const defaultChain = (): NavDivision[] => {
    const chain: NavDivision[] = [];
    let d = nav.root;
    for (let i = 0; i < 16 && d.items.length === 0; i++) {
      const next = [...d.divisions].filter((c) => !c.href).sort((a, b) => Number(b.isDefault ?? false) - Number(a.isDefault ?? false))[0];
      if (!next) break;
      chain.push(next);
      d = next;
    }
    return chain;
  };
  const fallbackChain = defaultChain();
  const sidebars = new Map<NavDivision, SidebarTemplate>();
  const sidebarFor = (chain: NavDivision[]) => {
    const key = chain.length ? chain[chain.length - 1] : nav.root;
    let t = sidebars.get(key);
    if (!t) {
      t = renderSidebarTemplate(nav.root, chain, config.globalLinks.map((l) => ({ label: l.label, href: l.href })), labels);
      sidebars.set(key, t);
    }
    return t;
  };
  const topTabs = nav.root.divisions.filter((d) => d.kind === 'tab' && !d.hidden);
  const tabsCache = new Map<NavDivision | undefined, string>();
  const tabsFor = (active: NavDivision | undefined) => {
    let html = tabsCache.get(active);
    if (html === undefined) {
      const items = topTabs.map((t) => {
        const href = divisionHref(t);
        return href ? `<li><a href="${href}"${t === active ? ' aria-current="true"' : ''}>${escapeHtml(t.label)}</a></li>` : '';
      }).join('');
      html = topTabs.length > 1 || (topTabs.length === 1 && topTabs[0].href) ? `<nav class="enclave-tabs" aria-label="Sections"><ul>${items}</ul></nav>` : '';
      tabsCache.set(active, html);
    }
    return html;
  };

  const sequence = nav.order.filter((p) => selected.has(p) && !frontmatter.get(p)?.hidden);
  const position = new Map(sequence.map((p, i) => [p, i]));
  const rootPrefix = (path: string) => '../'.repeat(path.split('/').length - 1);

  const chrome = (path: string, prefix: string) => {
    const loc = nav.locations.get(path);
    const chain = loc?.divisions ?? fallbackChain;
    const activeTab = chain.find((d) => d.kind === 'tab');
    return {
      tabsHtml: tabsFor(activeTab),
      sidebarHtml: sidebarForPage(sidebarFor(chain), path, prefix),
      breadcrumbs: [...chain.filter((d) => d.label).map((d) => d.label), ...(loc?.groups ?? [])].filter(Boolean),
    };
  };

  const page: ShellParts['page'] = (p, content, contentHtml, extra) => {
    const i = position.get(p.path);
    const neighbour = (j: number) => (j >= 0 && j < sequence.length ? { path: sequence[j], title: label(sequence[j]) } : undefined);
    const fm = content.frontmatter;
    return {
      path: p.path, title: content.title, description: content.description,
      canonical: canonicalUrl(opts.domain, p.path), noindex: fm.noindex,
      mode: typeof fm.mode === 'string' ? fm.mode : undefined,
      ...chrome(p.path, rootPrefix(p.path)),
      contentHtml, toc: content.summary.toc,
      prev: i === undefined ? undefined : neighbour(i - 1),
      next: i === undefined ? undefined : neighbour(i + 1),
      styles: extra.styles, scripts: extra.scripts,
    };
  };

  const simple = (path: string, title: string, body: string, prefix: string, canonical?: string, feedback = true) => renderPageShell(site, {
    path, title, canonical, noindex: true, feedback, ...chrome(path, prefix), contentHtml: body, toc: [], styles: [], scripts: [],
  }, prefix);

  return {
    site, label, rootPrefix, page,
    errorPage: (p, title, reason) => simple(p.path, title,
      `<div class="enclave-error" role="alert"><p>This page could not be rendered.</p><p><code>${escapeHtml(reason)}</code></p></div>`, rootPrefix(p.path), canonicalUrl(opts.domain, p.path)),
    // Served at any depth, so relative links can't work: it uses root-absolute ones (works when the
    // site is served at the host root, as Enclave does; under a path prefix it degrades to unstyled text).
    notFoundPage: () => simple('404', 'Page not found', `<p>There is no page at this address. Use the search or go to the <a href="/">home page</a>.</p>`, '/', undefined, false),
    emptySite: () => simple('index', config.name, '<p>This site has no pages yet.</p>', ''),
  };
}

/**
 * A logo or favicon as the shell may use it: a remote one is left out (the site name stands in
 * for the logo) unless the export keeps remote loads; renderSite reports it.
 */
function offlineShellAsset(src: string | undefined, keepRemote = false): string | undefined {
  return src && (keepRemote || !isRemoteUrl(src)) ? src : undefined;
}
