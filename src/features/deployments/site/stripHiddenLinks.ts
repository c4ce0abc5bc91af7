/** An `<a …>…</a>` element, or a `<link …>` one, with its href (double-quoted, as the renderer writes them). */
const LINK = /<a\b[^>]*?\shref="([^"]*)"[^>]*>[\s\S]*?<\/a>|<link\b[^>]*?\shref="([^"]*)"[^>]*>/g;

/**
 * `html` (a page served at `urlPath`) without its links to pages the reader may not open:
 * sidebar entries, tabs, breadcrumbs, prev/next and links in the text alike, so no title of
 * such a page reaches them. A link counts when its URL resolves, on the site, to a page of the
 * access map (`isHidden` says which of those to drop); every other link stays as written.
 */
export function stripHiddenLinks(html: string, urlPath: string, isHidden: (pagePath: string) => boolean): string {
  const base = `http://site${urlPath}`;
  return html.replace(LINK, (element: string, aHref: string | undefined, linkHref: string | undefined) => {
    const page = pageOfHref(aHref ?? linkHref ?? '', base);
    return page !== null && isHidden(page) ? '' : element;
  });
}

/** The page path a site-relative href names (`guides/start`, `index`), or null for another origin or a bad URL. */
function pageOfHref(href: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(href.replace(/&amp;/g, '&'), base);
  } catch {
    return null;
  }
  if (url.origin !== 'http://site') return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname).slice(1);
  } catch {
    return null;
  }
  path = path.replace(/\.(?:html|md)$/, '');
  return path === '' || path.endsWith('/') ? `${path}index` : path;
}
