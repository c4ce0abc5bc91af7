// size: the shell parts share the site's navigation and config; split, they would pass them all around
import { SCOPE_DIVISION_KINDS, type NavDivision } from '../config/SiteConfig.js';
import { resolveLink } from '../links/resolveLink.js';
import type { SitePage } from '../nav/resolveNavigation.js';
import { canonicalUrl } from '../output/buildSitemap.js';
import { titleFromPath } from '../page/renderPageContent.js';
import type { PageBody } from '../incremental/PageBody.js';
import { escapeHtml } from '../theme/escapeHtml.js';
import { renderPageShell, type ShellPage, type ShellSite } from '../theme/renderPageShell.js';
import {
  divisionHref,
  inPreferredOrder,
  languageSwitcherHtml,
  renderSidebarTemplate,
  ROOT_MARK,
  scopeSwitchersHtml,
  sidebarForPage,
  type SidebarTemplate,
} from '../theme/renderSidebar.js';
import type { ThemeAssets } from '../theme/prepareThemeAssets.js';
import type { LoadedSite } from './loadSite.js';
import { languageTag } from '../config/languageName.js';
import { findIconSvg } from '../icons/findIconSvg.js';
import { hastToHtml } from '../page/hastToHtml.js';
import { cloneHast } from '../page/cloneHast.js';
import { isRemoteUrl } from '../offline/isRemoteUrl.js';
import { createCounterpartFinder } from '../nav/createCounterpartFinder.js';
import { hashParts } from '../incremental/pageInputKeys.js';
import { createTabBar } from '../nav/createTabBar.js';

/** The theme pieces shared by all pages of one export, with per-division caches. */
export interface ShellParts {
  site: ShellSite;
  label(path: string): string;
  rootPrefix(path: string): string;
  /** The language/version/product a page belongs to (`language:fr|version:v2`), '' for none. */
  scope(path: string): string;
  page(
    page: SitePage,
    body: Pick<PageBody, 'title' | 'description' | 'descriptionHtml' | 'noindex' | 'mode' | 'contentHtml' | 'toc'>,
    extra: { styles: string[]; scripts: string[]; customScripts?: boolean },
  ): ShellPage;
  /**
   * The hash of everything a page's shell shows besides its own body: the site's header and
   * footer, its sidebar (the template and where the page sits in it), tab bar, switchers,
   * breadcrumbs, language and prev/next. A title change changes it only for the pages whose
   * navigation shows that title, so only those are assembled again (see IncrementalRender.outputKey).
   */
  shellKey(path: string): string;
  errorPage(page: SitePage, title: string, reason: string): string;
  notFoundPage(): string;
  emptySite(): string;
}

/** Builds the shell parts: site header/footer links made root-relative, sidebars cached per division, prev/next order. */
// size: a factory: most lines are the small closures it returns, which share its private state
export function createShellParts(
  loaded: LoadedSite,
  theme: ThemeAssets,
  searchIndex: string,
  opts: { domain: string; generatorVersion: string; droppedScripts?: readonly string[]; keepRemote?: boolean },
): ShellParts {
  const { config, nav, frontmatter, index } = loaded;
  const selected = new Set(loaded.selected.map((p) => p.path));
  const fromRoot = (href: string) => {
    const r = resolveLink(href, 'index', index);
    return r.kind === 'external' || r.kind === 'anchor' ? escapeHtml(r.href) : `${ROOT_MARK}${escapeHtml(r.href)}`;
  };
  const asset = (src: string) =>
    /^(?:[a-z]+:)?\/\//i.test(src) || src.startsWith('data:') ? escapeHtml(src) : `${ROOT_MARK}${escapeHtml(src.replace(/^\.?\/+/, ''))}`;
  const favicon = offlineShellAsset(typeof config.favicon === 'string' ? config.favicon : config.favicon?.light, opts.keepRemote);
  const logo =
    config.logo && offlineShellAsset(config.logo.light, opts.keepRemote) && offlineShellAsset(config.logo.dark, opts.keepRemote)
      ? config.logo
      : undefined;

  const site: ShellSite = {
    name: config.name,
    lang: 'en',
    logo: logo ? { light: asset(logo.light), dark: asset(logo.dark) } : undefined,
    favicon: favicon ? asset(favicon) : undefined,
    navbarLinks: config.navbarLinks.map((l) => ({ label: l.label, href: fromRoot(l.href) })),
    navbarPrimary: config.navbarPrimary ? { label: config.navbarPrimary.label, href: fromRoot(config.navbarPrimary.href) } : undefined,
    footerSocials: config.footerSocials.map((l) => ({ label: l.label, href: fromRoot(l.href) })),
    footerLinks: config.footerLinks.map((c) => ({
      header: c.header,
      items: c.items.map((i) => ({ label: i.label, href: fromRoot(i.href) })),
    })),
    appearance: config.appearance,
    theme: config.theme,
    styles: [...theme.styles, ...loaded.inventory.customCss],
    headScripts: theme.headScripts,
    bodyScripts: theme.bodyScripts,
    customScripts: loaded.inventory.customJs.filter((rel) => !opts.droppedScripts?.includes(rel)),
    themeScript: theme.themeScript,
    searchIndex,
    generator: `Enclave ${opts.generatorVersion}`,
  };

  const label = (path: string): string => {
    const fm = frontmatter.get(path);
    const page = nav.pages.get(path);
    if (page?.source.kind === 'operation') return page.source.title;
    return fm?.sidebarTitle ?? fm?.title ?? titleFromPath(path);
  };
  const hidden = (path: string) => frontmatter.get(path)?.hidden === true || !selected.has(path);
  const iconHtml = new Map<string, string>();
  /** A navigation icon from a name in the site's icon set; image paths and unknown names show none there. */
  const iconNamed = (raw: string | undefined): string => {
    const name = raw?.trim();
    if (!name) return '';
    let html = iconHtml.get(name);
    if (html === undefined) {
      const found = findIconSvg(name, config.iconLibrary);
      if (found) {
        const svg = cloneHast(found.svg);
        const { className: _c, width: _w, height: _h, xmlns: _x, ...drawing } = svg.properties;
        svg.properties = { ...drawing, className: ['enclave-nav-icon'], ariaHidden: 'true', focusable: 'false' };
        html = hastToHtml(svg);
      } else html = '';
      iconHtml.set(name, html);
    }
    return html;
  };
  const icon = (path: string) => iconNamed(frontmatter.get(path)?.icon);
  const labels = {
    label,
    hidden,
    icon,
    iconNamed,
    method: (path: string) => {
      const s = nav.pages.get(path)?.source;
      if (s?.kind === 'operation') return s.method;
      const api =
        frontmatter.get(path)?.openapi ?? (typeof frontmatter.get(path)?.api === 'string' ? String(frontmatter.get(path)?.api) : undefined);
      return api ? /(?:^|\s)([A-Za-z]+)\s+\S+$/.exec(api.trim())?.[1]?.toUpperCase() : undefined;
    },
  };

  const defaultChain = (): NavDivision[] => {
    const chain: NavDivision[] = [];
    let d = nav.root;
    for (let i = 0; i < 16 && d.items.length === 0; i++) {
      const next = inPreferredOrder(d.divisions.filter((c) => !c.href))[0];
      if (!next) break;
      chain.push(next);
      d = next;
    }
    return chain;
  };
  const fallbackChain = defaultChain();
  /**
   * The site's global links, then those of the reader's language (or other division): the hosted
   * site shows a language's own global anchors on its pages, beside any site-wide ones.
   */
  const globalLinksFor = (chain: NavDivision[]) => {
    const links = [...config.globalLinks, ...chain.flatMap((d) => d.globalLinks ?? [])];
    return links.filter((l, i) => links.findIndex((o) => o.href === l.href) === i);
  };
  const sidebars = new Map<NavDivision, SidebarTemplate>();
  const sidebarFor = (chain: NavDivision[]) => {
    const key = chain.length ? chain[chain.length - 1] : nav.root;
    let t = sidebars.get(key);
    if (!t) {
      t = renderSidebarTemplate(nav.root, chain, globalLinksFor(chain), labels);
      sidebars.set(key, t);
    }
    return t;
  };
  const tabsFor = createTabBar(nav.root, iconNamed);

  // Prev/next stay within the reader's language, version and product.
  const scopeOf = (path: string): string =>
    (nav.locations.get(path)?.divisions ?? [])
      .filter((d) => SCOPE_DIVISION_KINDS.has(d.kind))
      .map((d) => `${d.kind}:${d.code ?? d.label}`)
      .join('|');
  const sequences = new Map<string, string[]>();
  const position = new Map<string, number>();
  for (const p of nav.order) {
    if (!selected.has(p) || frontmatter.get(p)?.hidden) continue;
    const scope = scopeOf(p);
    const list = sequences.get(scope) ?? [];
    sequences.set(scope, list);
    position.set(p, list.length);
    list.push(p);
  }
  const rootPrefix = (path: string) => '../'.repeat(path.split('/').length - 1);
  const counterpart = createCounterpartFinder(
    nav.root,
    (p) => selected.has(p),
    (p) => nav.pages.get(p)?.source.kind === 'operation',
  );

  /** What a page's navigation is made of: its sidebar's template, not yet specialised for the page, and the rest as it shows. */
  const chromeParts = (path: string) => {
    const loc = nav.locations.get(path);
    const chain = loc?.divisions ?? fallbackChain;
    const language = chain.find((d) => d.kind === 'language');
    // Switching language, version or product keeps the reader's page where the other side has it.
    const keepPage = (to: NavDivision): string | undefined => {
      const found = !loc ? undefined : chain.includes(to) ? path : counterpart(path, to);
      return found ? `${ROOT_MARK}${escapeHtml(found)}.html` : divisionHref(to);
    };
    return {
      template: sidebarFor(chain),
      switchers: scopeSwitchersHtml(nav.root, chain, keepPage),
      tabsHtml: tabsFor(chain),
      languageHtml: language ? languageSwitcherHtml(nav.root, chain, keepPage) : '',
      // Languages, versions and products are in the switchers, not the breadcrumb.
      breadcrumbs: [
        ...chain.filter((d) => d.label && !SCOPE_DIVISION_KINDS.has(d.kind)).map((d) => d.label),
        ...(loc?.groups ?? []),
      ].filter(Boolean),
      lang: language?.code ? languageTag(language.code) : undefined,
      searchScope: scopeOf(path) || undefined,
    };
  };
  const chrome = (path: string, prefix: string) => {
    const { template, switchers, ...rest } = chromeParts(path);
    return { ...rest, sidebarHtml: (switchers ? switchers.split(ROOT_MARK).join(prefix) : '') + sidebarForPage(template, path, prefix) };
  };
  /** The pages before and after `path` in its language, version and product. */
  const neighbours = (path: string) => {
    const i = position.get(path);
    const sequence = sequences.get(scopeOf(path)) ?? [];
    const at = (j: number) =>
      i !== undefined && j >= 0 && j < sequence.length ? { path: sequence[j], title: label(sequence[j]) } : undefined;
    return { prev: i === undefined ? undefined : at(i - 1), next: i === undefined ? undefined : at(i + 1) };
  };

  // Hashed once each: sidebar templates and tab bars are shared by every page of a division.
  const siteDigest = hashParts(JSON.stringify(site), opts.domain);
  const templateDigests = new WeakMap<SidebarTemplate, string>();
  const tabDigests = new Map<string, string>();
  const shellKey = (path: string): string => {
    const { template, tabsHtml, ...rest } = chromeParts(path);
    let sidebar = templateDigests.get(template);
    if (sidebar === undefined) templateDigests.set(template, (sidebar = hashParts(template.html)));
    let tabs = tabDigests.get(tabsHtml);
    if (tabs === undefined) tabDigests.set(tabsHtml, (tabs = hashParts(tabsHtml)));
    // The page's sidebar is its template specialised by path (its depth, its link, its open groups).
    const opened = JSON.stringify(template.groupsOfPage.get(path) ?? []);
    return hashParts(siteDigest, path, sidebar, opened, tabs, JSON.stringify(rest), JSON.stringify(neighbours(path)));
  };

  const page: ShellParts['page'] = (p, body, extra) => {
    const { prev, next } = neighbours(p.path);
    return {
      path: p.path,
      title: body.title,
      description: body.description,
      descriptionHtml: body.descriptionHtml,
      canonical: canonicalUrl(opts.domain, p.path),
      noindex: body.noindex,
      mode: body.mode,
      ...chrome(p.path, rootPrefix(p.path)),
      contentHtml: body.contentHtml,
      toc: body.toc,
      prev,
      next,
      styles: extra.styles,
      scripts: extra.scripts,
      customScripts: extra.customScripts,
    };
  };

  const simple = (path: string, title: string, body: string, prefix: string, canonical?: string, feedback = true) =>
    renderPageShell(
      site,
      {
        path,
        title,
        canonical,
        noindex: true,
        feedback,
        ...chrome(path, prefix),
        contentHtml: body,
        toc: [],
        styles: [],
        scripts: [],
      },
      prefix,
    );

  return {
    site,
    label,
    rootPrefix,
    page,
    shellKey,
    scope: scopeOf,
    errorPage: (p, title, reason) =>
      simple(
        p.path,
        title,
        `<div class="enclave-error" role="alert"><p>This page could not be rendered.</p><p><code>${escapeHtml(reason)}</code></p></div>`,
        rootPrefix(p.path),
        canonicalUrl(opts.domain, p.path),
      ),
    // Served at any depth, so relative links can't work: it uses root-absolute ones (works when the
    // site is served at the host root, as Enclave does; under a path prefix it degrades to unstyled text).
    notFoundPage: () =>
      simple(
        '404',
        'Page not found',
        `<p>There is no page at this address. Use the search or go to the <a href="/">home page</a>.</p>`,
        '/',
        undefined,
        false,
      ),
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
