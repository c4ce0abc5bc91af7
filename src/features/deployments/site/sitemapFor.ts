/**
 * sitemap.xml cut down to the pages `hidden` does not name, for a reader of a site with sign-in:
 * the export lists every page, and a URL alone tells that a restricted page exists. Each entry
 * is one `<url><loc>…</loc></url>` line (render/output/buildSitemap.ts); a line that is not
 * one is dropped rather than passed on unread.
 */
export function sitemapFor(xml: string, hidden: (page: string) => boolean): string {
  const kept: string[] = [];
  for (const line of xml.split('\n')) {
    const entry = /^\s*<url><loc>([^<]*)<\/loc><\/url>$/.exec(line);
    if (!entry) {
      if (!line.includes('<url>')) kept.push(line);
      continue;
    }
    const page = pageOfLoc(entry[1]!);
    if (page !== null && !hidden(page)) kept.push(line);
  }
  return kept.join('\n');
}

/** The page path of a canonical URL (`https://host/a/b` → `a/b`, home → `index`), or null. */
function pageOfLoc(loc: string): string | null {
  try {
    const url = new URL(loc.replace(/&amp;/g, '&'));
    const path = url.pathname
      .split('/')
      .map(decodeURIComponent)
      .join('/')
      .replace(/^\/+|\/+$/g, '');
    return path === '' ? 'index' : path;
  } catch {
    return null;
  }
}
