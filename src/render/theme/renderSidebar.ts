import { SCOPE_DIVISION_KINDS, type NavDivision, type NavGroup, type NavItem } from '../config/SiteConfig.js';
import { escapeHtml } from './escapeHtml.js';

/**
 * Stands for "relative path to the site root" in cached templates; replaced per page depth.
 * The marks are C0 control characters: `escapeHtml` drops those from titles and labels (HTML and
 * XML text can't carry them), so no name can fake a mark. Private-use characters, used before,
 * are real text in docs that use icon fonts, and were deleted from such pages.
 */
export const ROOT_MARK = '\u0001';
/**
 * Follows the href of every sidebar page link in a template, so the current page's link can be
 * found per page; removed from the result. An attribute would do the same but ship in every link
 * of every page (the sidebar is most of a page's bytes).
 */
const PAGE_MARK = '\u0002';

/** How the sidebar names pages. */
export interface PageLabels {
  label(path: string): string;
  hidden(path: string): boolean;
  /** HTTP method for API pages (shown as a badge). */
  method(path: string): string | undefined;
  /** Inline SVG of the page's frontmatter `icon`, or '' (shown before the label). */
  icon(path: string): string;
  /** Inline SVG of a named icon (a group's `icon`), or ''. */
  iconNamed(name: string | undefined): string;
}

/** A sidebar rendered once per navigation division and specialised cheaply per page. */
export interface SidebarTemplate {
  html: string;
  /** Nested-group ids that contain each page, opened on that page. */
  groupsOfPage: Map<string, number[]>;
  /** The template made relative for each page depth seen so far (see `sidebarForPage`). */
  byPrefix: Map<string, RelativeSidebar>;
}

/** A sidebar template with its links made relative, its marks removed, and where per-page attributes go. */
interface RelativeSidebar {
  html: string;
  /** Offset just after the closing quote of each page link's href (the first link, as `replace` finds it), by escaped path. */
  linkEnds: Map<string, number>;
  /** Offset just after `data-gid="N"` of each nested group. */
  groupEnds: Map<number, number>;
}

/**
 * Divisions in the order a reader is led into them: the default first, hidden ones (a hidden
 * version, reached by link only) last, the rest as written.
 */
export function inPreferredOrder(divisions: NavDivision[]): NavDivision[] {
  const rank = (c: NavDivision) => (c.isDefault ? 2 : c.hidden ? 0 : 1);
  return [...divisions].sort((a, b) => rank(b) - rank(a));
}

/** The first page reachable in a division (default child divisions preferred). */
export function firstPageOf(d: NavDivision): string | undefined {
  const fromItems = (items: NavItem[]): string | undefined => {
    for (const item of items) {
      if (item.kind === 'page') return item.path;
      if (item.kind === 'group') {
        const p = item.root ?? fromItems(item.items);
        if (p) return p;
      }
    }
    return undefined;
  };
  const own = fromItems(d.items);
  if (own) return own;
  for (const c of inPreferredOrder(d.divisions)) {
    if (c.href) continue;
    const p = firstPageOf(c);
    if (p) return p;
  }
  return undefined;
}

/** Link target for a division: its external href or its first page, as a root-relative template href. */
export function divisionHref(d: NavDivision): string | undefined {
  if (d.href) return d.href;
  const first = firstPageOf(d);
  return first ? `${ROOT_MARK}${escapeHtml(first)}.html` : undefined;
}

/** Where a switcher entry leads: a root-relative template href (ROOT_MARK), or undefined for none. */
export type SwitchTarget = (to: NavDivision) => string | undefined;

/**
 * Renders the sidebar for the division chain `chain` (outermost first): dropdown switchers,
 * anchor links, the site's global links, then the groups. The language, version and product
 * switchers lead to the reader's page and so are rendered per page (scopeSwitchersHtml).
 */
// size: the sidebar template in document order; a template reads best whole
export function renderSidebarTemplate(
  root: NavDivision,
  chain: NavDivision[],
  globalLinks: { label: string; href: string; icon?: string }[],
  labels: PageLabels,
): SidebarTemplate {
  const groupsOfPage = new Map<string, number[]>();
  let nextGroup = 0;
  const out: string[] = [];

  chain.forEach((d, i) => {
    // Tabs and their menus are in the tab bar.
    if (d.kind === 'tab' || d.kind === 'menu' || SCOPE_DIVISION_KINDS.has(d.kind)) return;
    const parent = i === 0 ? root : chain[i - 1];
    if (d.kind === 'anchor') {
      const links = switcherLinks(parent, d, divisionHref, labels.iconNamed);
      if (links) out.push(`<ul class="enclave-sidebar-links">${links}</ul>`);
    } else out.push(switcherHtml(parent, d, divisionHref, 'enclave-switcher'));
  });

  if (globalLinks.length) {
    out.push(
      `<ul class="enclave-sidebar-links">${globalLinks.map((l) => `<li><a href="${escapeHtml(l.href)}">${labels.iconNamed(l.icon)}${escapeHtml(l.label)}</a></li>`).join('')}</ul>`,
    );
  }

  /** A page's sidebar link; a group's root page is labelled with the group's name (`title`). */
  const pageLink = (path: string, title?: string) => {
    const method = labels.method(path);
    const badge = method
      ? `<span class="enclave-method" data-method="${escapeHtml(method)}">${escapeHtml(method === 'DELETE' ? 'DEL' : method)}</span>`
      : '';
    return `<a href="${ROOT_MARK}${escapeHtml(path)}.html"${PAGE_MARK}>${badge}${labels.icon(path)}${escapeHtml(title ?? labels.label(path))}</a>`;
  };
  /** A collapsible group row: one line (the root page's link under the group's name, or the name) with its chevron. */
  const groupRow = (item: NavGroup, id: number, inner: string) =>
    `<details data-gid="${id}"${item.expanded ? ' open' : ''}${item.root ? ' class="enclave-root-group"' : ''}><summary>${item.root ? pageLink(item.root, item.title || undefined) : `${labels.iconNamed(item.icon)}${escapeHtml(item.title)}`}</summary><ul>${inner}</ul></details>`;

  const renderItems = (items: NavItem[], ancestors: number[]): string =>
    items
      .map((item) => {
        if (item.kind === 'page') {
          if (labels.hidden(item.path)) return '';
          if (!groupsOfPage.has(item.path)) groupsOfPage.set(item.path, ancestors);
          return `<li>${pageLink(item.path)}</li>`;
        }
        if (item.kind === 'link') return `<li><a href="${escapeHtml(item.href)}">${escapeHtml(item.title)}</a></li>`;
        if (item.kind !== 'group' || item.hidden) return '';
        const id = ++nextGroup;
        const inner = renderItems(item.items, [...ancestors, id]);
        if (item.root && !groupsOfPage.has(item.root)) groupsOfPage.set(item.root, [...ancestors, id]);
        if (!inner && !item.root) return '';
        return `<li>${groupRow(item, id, inner)}</li>`;
      })
      .join('');

  const deepest = chain.length ? chain[chain.length - 1] : root;
  const loose: NavItem[] = [];
  const flush = () => {
    if (loose.length) out.push(`<ul class="enclave-group">${renderItems(loose.splice(0), [])}</ul>`);
  };
  for (const item of deepest.items) {
    if (item.kind !== 'group') {
      loose.push(item);
      continue;
    }
    flush();
    if (item.hidden) continue;
    if (item.root) {
      // A top-level group with its own page is a row that opens, as nested groups are.
      const id = ++nextGroup;
      const inner = renderItems(item.items, [id]);
      if (!groupsOfPage.has(item.root)) groupsOfPage.set(item.root, [id]);
      out.push(`<ul class="enclave-group"><li>${groupRow(item, id, inner)}</li></ul>`);
      continue;
    }
    const body = renderItems(item.items, []);
    if (!body) continue;
    const gid = `enclave-g-${++nextGroup}`;
    const title = item.title
      ? `<p class="enclave-group-title" id="${gid}">${labels.iconNamed(item.icon)}${escapeHtml(item.title)}</p>`
      : '';
    out.push(`<section class="enclave-group"${item.title ? ` aria-labelledby="${gid}"` : ''}>${title}<ul>${body}</ul></section>`);
  }
  flush();
  return { html: out.join(''), groupsOfPage, byPrefix: new Map() };
}

/**
 * Links to `d` and its visible siblings of the same kind, `d` marked current ('' when none has a
 * page). A hidden `d` is not listed: readers reach it by link only, as on the hosted site.
 */
function switcherLinks(
  parent: NavDivision,
  d: NavDivision,
  hrefOf: SwitchTarget,
  iconNamed?: (name: string | undefined) => string,
): string {
  return parent.divisions
    .filter((s) => s.kind === d.kind && !s.hidden)
    .map((s) => {
      const href = hrefOf(s);
      if (!href) return '';
      const current = s === d ? ' aria-current="true"' : '';
      return `<li><a href="${href}"${current}>${iconNamed?.(s.icon) ?? ''}${escapeHtml(s.label)}</a></li>`;
    })
    .join('');
}

/** A disclosure naming the reader's choice (`d`) that lists the others (versions, languages, products, dropdowns). */
function switcherHtml(parent: NavDivision, d: NavDivision, hrefOf: SwitchTarget, className: string): string {
  const links = switcherLinks(parent, d, hrefOf);
  if (!links) return '';
  return `<details class="${className}"><summary><span class="enclave-visually-hidden">${d.kind}: </span>${escapeHtml(d.label)}</summary><ul>${links}</ul></details>`;
}

/**
 * The language switcher for the top bar, as on the hosted site ('' when the page is under no
 * language): hrefs are root-relative templates (ROOT_MARK), like the rest of the page's header.
 */
export function languageSwitcherHtml(root: NavDivision, chain: NavDivision[], hrefOf: SwitchTarget): string {
  const at = chain.findIndex((d) => d.kind === 'language');
  if (at < 0) return '';
  return switcherHtml(at === 0 ? root : chain[at - 1], chain[at], hrefOf, 'enclave-switcher enclave-language-switcher');
}

/**
 * The version, language and product switchers of one page's sidebar, in chain order, with
 * root-relative template hrefs (`hrefOf` chooses each target, usually the same page there). The
 * language one shows only in the phone-width menu: the top bar carries it on wider screens.
 */
export function scopeSwitchersHtml(root: NavDivision, chain: NavDivision[], hrefOf: SwitchTarget): string {
  return chain
    .map((d, i) =>
      SCOPE_DIVISION_KINDS.has(d.kind)
        ? switcherHtml(
            i === 0 ? root : chain[i - 1],
            d,
            hrefOf,
            d.kind === 'language' ? 'enclave-switcher enclave-switcher-mobile' : 'enclave-switcher',
          )
        : '',
    )
    .join('');
}

/**
 * Specialises a sidebar template for one page: links relative to the page's folder (`rootPrefix`),
 * the current page marked, its groups opened. The template is made relative once per depth, and a
 * page's sidebar is that string with a few attributes spliced in. Splitting and joining the whole
 * template per page (often most of a page's size) was a large share of everything an export
 * allocated.
 */
export function sidebarForPage(t: SidebarTemplate, path: string, rootPrefix: string): string {
  let relative = t.byPrefix.get(rootPrefix);
  if (!relative) t.byPrefix.set(rootPrefix, (relative = makeRelative(t.html, rootPrefix)));
  const inserts: [at: number, text: string][] = [];
  const link = relative.linkEnds.get(escapeHtml(path));
  if (link !== undefined) inserts.push([link, ' aria-current="page"']);
  for (const gid of t.groupsOfPage.get(path) ?? []) {
    const group = relative.groupEnds.get(gid);
    if (group !== undefined) inserts.push([group, ' open']);
  }
  inserts.sort((a, b) => a[0] - b[0]);
  let html = '';
  let from = 0;
  for (const [at, text] of inserts) {
    html += relative.html.slice(from, at) + text;
    from = at;
  }
  return html + relative.html.slice(from);
}

function makeRelative(template: string, rootPrefix: string): RelativeSidebar {
  const linkEnds = new Map<string, number>();
  /** Output length minus input offset so far: each ROOT_MARK grows by the prefix, each PAGE_MARK disappears. */
  let shift = 0;
  const html = template.replace(/[\u0001\u0002]/g, (mark, offset: number) => {
    if (mark === ROOT_MARK) {
      shift += rootPrefix.length - 1;
      return rootPrefix;
    }
    // A page link reads `href="<ROOT_MARK>path.html"<PAGE_MARK>`.
    const start = template.lastIndexOf(`href="${ROOT_MARK}`, offset) + 7;
    const escapedPath = template.slice(start, offset - '.html"'.length);
    if (!linkEnds.has(escapedPath)) linkEnds.set(escapedPath, offset + shift);
    shift -= 1;
    return '';
  });
  const groupEnds = new Map<number, number>();
  for (const m of html.matchAll(/data-gid="(\d+)"/g)) groupEnds.set(Number(m[1]), m.index + m[0].length);
  return { html, linkEnds, groupEnds };
}
