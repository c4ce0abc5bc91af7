import { escapeHtml } from '../theme/escapeHtml.js';

/** The canonical, extensionless URL of a page: `https://docs.example.com/guides/start` (home is `/`). */
export function canonicalUrl(domain: string, path: string): string {
  const p = path === 'index' ? '' : path.replace(/\/index$/, '');
  return `https://${domain}/${p.split('/').map(encodeURIComponent).join('/')}`;
}

/** sitemap.xml listing the given pages by canonical URL. */
export function buildSitemap(domain: string, paths: string[]): string {
  const urls = paths.map((p) => `  <url><loc>${escapeHtml(canonicalUrl(domain, p))}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}
