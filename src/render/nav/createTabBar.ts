import type { NavDivision } from '../config/SiteConfig.js';
import { escapeHtml } from '../theme/escapeHtml.js';
import { divisionHref } from '../theme/renderSidebar.js';

/**
 * The tab bar for a page: the tabs beside the page's tab, wherever in the nav they sit (under a
 * language, version, …), with the page's tab (or menu item) marked. One string per parent and
 * active tab, shared by every page there.
 */
export function createTabBar(root: NavDivision, iconNamed: (name: string | undefined) => string): (chain: NavDivision[]) => string {
  const tabsCache = new Map<NavDivision, Map<NavDivision | undefined, string>>();
  return (chain: NavDivision[]): string => {
    const at = chain.findIndex((d) => d.kind === 'tab');
    const parent = at > 0 ? chain[at - 1] : at === 0 || chain.length === 0 ? root : chain[chain.length - 1];
    const active = at >= 0 ? (chain[at + 1]?.kind === 'menu' ? chain[at + 1] : chain[at]) : undefined;
    const byActive = tabsCache.get(parent) ?? new Map<NavDivision | undefined, string>();
    tabsCache.set(parent, byActive);
    let html = byActive.get(active);
    if (html === undefined) {
      const tabs = parent.divisions.filter((d) => d.kind === 'tab' && !d.hidden);
      const items = tabs
        .map((t) => {
          const menu = t.divisions.filter((d) => d.kind === 'menu' && !d.hidden);
          if (menu.length > 0) return tabMenuHtml(t, menu, active, iconNamed);
          const href = divisionHref(t);
          return href
            ? `<li><a href="${href}"${t === active ? ' aria-current="true"' : ''}>${iconNamed(t.icon)}${escapeHtml(t.label)}</a></li>`
            : '';
        })
        .join('');
      const show = tabs.length > 1 || (tabs.length === 1 && (!!tabs[0].href || tabs[0].divisions.some((d) => d.kind === 'menu')));
      html = show ? `<nav class="enclave-tabs" aria-label="Sections"><ul>${items}</ul></nav>` : '';
      byActive.set(active, html);
    }
    return html;
  };
}

/** A tab with a `menu`: a disclosure in the tab bar listing the menu's items. */
function tabMenuHtml(
  tab: NavDivision,
  menu: NavDivision[],
  active: NavDivision | undefined,
  iconNamed: (name: string | undefined) => string,
): string {
  const current = active === tab || menu.includes(active as NavDivision);
  const items = menu
    .map((m) => {
      const href = divisionHref(m);
      return href
        ? `<li><a href="${href}"${m === active ? ' aria-current="true"' : ''}>${iconNamed(m.icon)}${escapeHtml(m.label)}</a></li>`
        : '';
    })
    .join('');
  return `<li class="enclave-tab-menu"><details><summary${current ? ' aria-current="true"' : ''}>${iconNamed(tab.icon)}${escapeHtml(tab.label)}</summary><ul>${items}</ul></details></li>`;
}
