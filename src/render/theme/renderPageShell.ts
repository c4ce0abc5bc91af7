import { DOCUMENT_POLICY_META } from '../../platform/documentPolicyMeta.js';
import type { TocEntry } from '../page/finalizeContent.js';
import { escapeHtml } from './escapeHtml.js';
import { interfaceText } from './interfaceText.js';
import { ENGLISH_INTERFACE, type InterfaceText } from './interfaceTranslations.js';
import { logoHtml } from './logoHtml.js';
import { ROOT_MARK } from './renderSidebar.js';

/** Site-wide parts of the shell, prepared once per render (hrefs may contain ROOT_MARK). */
export interface ShellSite {
  name: string;
  lang: string;
  logo?: { light: string; dark: string };
  favicon?: string;
  navbarLinks: { label: string; href: string }[];
  navbarPrimary?: { label: string; href: string };
  footerSocials: { label: string; href: string }[];
  footerLinks: { header?: string; items: { label: string; href: string }[] }[];
  appearance: { default: 'system' | 'light' | 'dark'; strict: boolean };
  /** docs.json theme name: `enclave-theme-<name>` on <html> selects its variant in variants.css. */
  theme: string;
  /** Bundle-relative asset paths. */
  styles: string[];
  headScripts: string[];
  bodyScripts: string[];
  /** The source's custom `.js` files, after bodyScripts on every page that allows them (see ShellPage). */
  customScripts: string[];
  themeScript: string;
  searchIndex: string;
  generator: string;
}

/** Page-specific parts of the shell. */
export interface ShellPage {
  path: string;
  title: string;
  description?: string;
  /** The description as inline HTML, when its Markdown was rendered (else `description` is escaped). */
  descriptionHtml?: string;
  canonical?: string;
  noindex?: boolean;
  /** False on pages readers can't rate (the 404 page): no feedback control is mounted. */
  feedback?: boolean;
  mode?: string;
  /** The page's language tag when the nav puts it under a language (else the site's). */
  lang?: string;
  /** The reader's language/version/product (see ShellParts.scope); search starts there. */
  searchScope?: string;
  breadcrumbs: string[];
  tabsHtml: string;
  /** The language switcher for the top bar (root-relative hrefs), '' or absent without languages. */
  languageHtml?: string;
  /** Already relative to the page (see sidebarForPage), unlike the other parts. */
  sidebarHtml: string;
  contentHtml: string;
  toc: TocEntry[];
  prev?: { path: string; title: string };
  next?: { path: string; title: string };
  /** Extra bundle-relative styles/scripts this page needs (KaTeX, Mermaid, …). */
  styles: string[];
  scripts: string[];
  /** False on pages whose policy lets them reach other origins ("Try it"): custom scripts stay off them. */
  customScripts?: boolean;
}

const ICON = {
  menu: '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" d="M4 7h16M4 12h16M4 17h16"/></svg>',
  moon: '<svg class="enclave-moon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M20 14.5A8.5 8.5 0 0 1 9.5 4a8.5 8.5 0 1 0 10.5 10.5z"/></svg>',
  sun: '<svg class="enclave-sun" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="12" r="4.5" fill="currentColor"/><path stroke="currentColor" stroke-width="2" stroke-linecap="round" d="M12 2v2M12 20v2M2 12h2M20 12h2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4"/></svg>',
  search:
    '<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false"><circle cx="11" cy="11" r="7" fill="none" stroke="currentColor" stroke-width="2"/><path stroke="currentColor" stroke-width="2" stroke-linecap="round" d="m20 20-3.5-3.5"/></svg>',
};

/**
 * Renders a complete HTML document around already-rendered content. Everything outside the
 * content is built with ROOT_MARK placeholders and made relative with `rootPrefix` at the end,
 * so the same code serves pages at any depth (and the 404 page with an absolute `/` root).
 */
// size: the page template in document order (head, header, sidebar, content, footer); a template reads best whole
export function renderPageShell(site: ShellSite, page: ShellPage, rootPrefix: string): string {
  const R = ROOT_MARK;
  const e = escapeHtml;
  const asset = (p: string) => `${R}${e(p)}`;
  const ui = interfaceText(page.lang ?? site.lang);
  // `…` as the entity, as pages were written before the text was translatable: English pages stay byte for byte the same.
  const t = (key: keyof InterfaceText) => e(ui[key]).replace(/…/g, '&hellip;');
  const head = [
    '<!doctype html>',
    `<html lang="${e(page.lang ?? site.lang)}" class="enclave-theme-${e(site.theme)}" data-theme-default="${site.appearance.default}"${site.appearance.strict ? ' data-theme-strict="true"' : ''}>`,
    '<head>',
    '<meta charset="utf-8">',
    DOCUMENT_POLICY_META,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(page.title === site.name ? page.title : `${page.title} - ${site.name}`)}</title>`,
    page.description ? `<meta name="description" content="${e(page.description)}">` : '',
    page.canonical ? `<link rel="canonical" href="${e(page.canonical)}">` : '',
    page.noindex ? '<meta name="robots" content="noindex">' : '',
    `<meta name="generator" content="${e(site.generator)}">`,
    `<meta name="enclave-page" content="/${e(page.path === 'index' ? '' : page.path)}">`,
    `<meta property="og:title" content="${e(page.title)}">`,
    page.searchScope ? `<meta name="enclave-search-scope" content="${e(page.searchScope)}">` : '',
    site.favicon ? `<link rel="icon" href="${site.favicon}">` : '',
    ...site.headScripts.map((s) => `<script src="${asset(s)}"></script>`),
    ...[...site.styles, ...page.styles].map((s) => `<link rel="stylesheet" href="${asset(s)}">`),
    '</head>',
    `<body class="enclave-mode-${e(page.mode ?? 'default')}">`,
    `<a class="enclave-skip" href="#enclave-content">${t('skipToContent')}</a>`,
    '<header class="enclave-header">',
    '<div class="enclave-topbar">',
    `<button type="button" class="enclave-icon-button enclave-menu-toggle" aria-controls="enclave-sidebar" aria-expanded="false" aria-label="${t('openNavigation')}">${ICON.menu}</button>`,
    `<a class="enclave-logo" href="${R}index.html">${logoHtml(site)}</a>`,
    `<button type="button" class="enclave-search-button" aria-haspopup="dialog" aria-controls="enclave-search" aria-keyshortcuts="Control+K /">${ICON.search}<span>${t('search')}</span><kbd>Ctrl K</kbd></button>`,
    navbarHtml(site),
    page.languageHtml ?? '',
    site.appearance.strict
      ? ''
      : `<button type="button" class="enclave-icon-button enclave-theme-toggle" aria-pressed="false" aria-label="${t('darkMode')}">${ICON.moon}${ICON.sun}</button>`,
    '</div>',
    page.tabsHtml,
    '</header>',
    '<div class="enclave-layout">',
    `<nav id="enclave-sidebar" class="enclave-sidebar" aria-label="${t('documentation')}">`,
  ]
    .filter(Boolean)
    .join('\n');

  const afterSidebar = [
    '</nav>',
    '<main id="enclave-content" class="enclave-main" tabindex="-1">',
    page.breadcrumbs.length && page.mode !== 'custom'
      ? `<nav class="enclave-breadcrumbs" aria-label="${t('breadcrumb')}"><ol>${page.breadcrumbs.map((b) => `<li>${e(b)}</li>`).join('')}</ol></nav>`
      : '',
    // Custom and frame pages bring their own top; a title block above it would be doubled.
    page.mode === 'custom' || page.mode === 'frame'
      ? ''
      : `<header class="enclave-page-header"><h1>${e(page.title)}</h1>${page.description ? `<p class="enclave-description">${page.descriptionHtml ?? e(page.description)}</p>` : ''}</header>`,
    '<div class="enclave-content">',
  ]
    .filter(Boolean)
    .join('\n');

  const tail = [
    '</div>',
    page.feedback === false
      ? ''
      : `<div id="enclave-feedback" class="enclave-feedback" data-page="/${e(page.path === 'index' ? '' : page.path)}"></div>`,
    paginationHtml(page, t),
    '</main>',
    tocHtml(page.toc, t('onThisPage')),
    '</div>',
    footerHtml(site),
    `<div id="enclave-search" class="enclave-search" role="dialog" aria-modal="true" aria-label="${t('searchDocs')}" hidden>`,
    '<div class="enclave-search-panel">',
    `<input id="enclave-search-input" type="search" role="combobox" aria-autocomplete="list" aria-expanded="false" aria-controls="enclave-search-results" aria-label="${t('searchDocs')}" placeholder="${t('search')}" autocomplete="off" spellcheck="false">`,
    '<p id="enclave-search-status" class="enclave-search-status" role="status" aria-live="polite"></p>',
    `<ul id="enclave-search-results" class="enclave-search-results" role="listbox" aria-label="${t('searchResults')}"></ul>`,
    '</div>',
    '</div>',
    clientTextScript(ui),
    `<script src="${asset(site.themeScript)}" data-enclave-theme data-root="${R}" data-search-index="${asset(site.searchIndex)}"></script>`,
    ...[...site.bodyScripts, ...(page.customScripts === false ? [] : site.customScripts), ...page.scripts].map(
      (s) => `<script src="${asset(s)}"></script>`,
    ),
    '</body>',
    '</html>',
    '',
  ]
    .filter(Boolean)
    .join('\n');

  // The sidebar, most of a page, is spliced in as it is rather than split and joined again.
  const fill = (s: string) => s.split(R).join(rootPrefix);
  const content = page.contentHtml.includes(R) ? page.contentHtml.split(R).join('') : page.contentHtml;
  return `${fill(head)}${page.sidebarHtml}${fill(afterSidebar)}\n${content}\n${fill(tail)}`;
}

/** The interface text the page's scripts show (search, menu, feedback, copy), read by them from this block. */
const CLIENT_KEYS: readonly (keyof InterfaceText)[] = [
  'openNavigation',
  'closeNavigation',
  'searchLoading',
  'searchFailed',
  'searchPrompt',
  'searchAll',
  'oneResult',
  'manyResults',
  'noResults',
  'copied',
  'copyFailed',
  'helpful',
  'yes',
  'no',
  'send',
  'cancel',
  'couldBeBetter',
  'anythingToAdd',
  'email',
  'sending',
  'thanks',
  'sendFailed',
  'tooMany',
  'codeFeedback',
  'codeWrong',
  'thanksShort',
  'codeThanks',
];

/**
 * The scripts' interface text as a JSON block (not run, so no CSP change), on translated pages
 * only: the scripts carry the English text themselves, so English pages need none.
 */
function clientTextScript(ui: InterfaceText): string {
  if (ui === ENGLISH_INTERFACE) return '';
  const text = Object.fromEntries(CLIENT_KEYS.map((k) => [k, ui[k]]));
  return `<script type="application/json" id="enclave-interface-text">${JSON.stringify(text).replace(/</g, '\\u003c')}</script>`;
}

function navbarHtml(site: ShellSite): string {
  const items = site.navbarLinks.map((l) => `<li><a href="${l.href}">${escapeHtml(l.label)}</a></li>`);
  if (site.navbarPrimary)
    items.push(`<li><a class="enclave-primary-link" href="${site.navbarPrimary.href}">${escapeHtml(site.navbarPrimary.label)}</a></li>`);
  return items.length ? `<nav class="enclave-navbar" aria-label="Site links"><ul>${items.join('')}</ul></nav>` : '';
}

function paginationHtml(page: ShellPage, t: (key: keyof InterfaceText) => string): string {
  if (!page.prev && !page.next) return '';
  const link = (p: { path: string; title: string }, rel: 'prev' | 'next') =>
    `<a class="enclave-${rel}" rel="${rel}" href="${ROOT_MARK}${escapeHtml(p.path)}.html"><small>${t(rel === 'prev' ? 'previous' : 'next')}</small><span>${escapeHtml(p.title)}</span></a>`;
  return `<nav class="enclave-pagination" aria-label="${t('previousAndNext')}">${page.prev ? link(page.prev, 'prev') : ''}${page.next ? link(page.next, 'next') : ''}</nav>`;
}

function tocHtml(toc: TocEntry[], onThisPage: string): string {
  if (toc.length === 0) return `<aside class="enclave-toc" aria-label="${onThisPage}"></aside>`;
  const items = toc
    .map((t) => `<li class="enclave-toc-${t.depth}"><a href="#${escapeHtml(encodeURIComponent(t.id))}">${escapeHtml(t.text)}</a></li>`)
    .join('');
  return `<aside class="enclave-toc" aria-labelledby="enclave-toc-title"><h2 id="enclave-toc-title">${onThisPage}</h2><ul>${items}</ul></aside>`;
}

function footerHtml(site: ShellSite): string {
  const socials = site.footerSocials.map((s) => `<li><a href="${s.href}">${escapeHtml(socialName(s.label))}</a></li>`).join('');
  const columns = site.footerLinks
    .map(
      (c) =>
        `<div>${c.header ? `<p>${escapeHtml(c.header)}</p>` : ''}<ul>${c.items.map((i) => `<li><a href="${i.href}">${escapeHtml(i.label)}</a></li>`).join('')}</ul></div>`,
    )
    .join('');
  return `<footer class="enclave-footer"><div class="enclave-footer-inner"><span>${escapeHtml(site.name)}</span>${columns}${socials ? `<ul aria-label="Social links">${socials}</ul>` : ''}</div></footer>`;
}

const SOCIAL_NAMES: Record<string, string> = {
  x: 'X',
  github: 'GitHub',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
  discord: 'Discord',
  slack: 'Slack',
  twitter: 'Twitter',
  facebook: 'Facebook',
  instagram: 'Instagram',
  website: 'Website',
};

function socialName(key: string): string {
  return SOCIAL_NAMES[key.toLowerCase()] ?? key.charAt(0).toUpperCase() + key.slice(1);
}
