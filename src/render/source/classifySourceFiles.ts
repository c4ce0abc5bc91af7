import { normalizePagePath } from '../config/parseNavEntry.js';

/** The docs source split by role. */
export interface SourceInventory {
  /** Page path → relative source file (`guides/start` → `guides/start.mdx`). */
  pages: Map<string, string>;
  /** Files copied into the bundle as-is (images, downloads, custom CSS/JS …). */
  staticFiles: string[];
  /** Custom stylesheets and scripts every page includes, as the hosted product does. */
  customCss: string[];
  customJs: string[];
  /** OpenAPI-looking files found on disk (used when a page names an operation without a file). */
  openapiFiles: string[];
}

const isSnippet = (rel: string) => /^(?:snippets|_snippets)\//.test(rel) || /\/_snippets\//.test(rel);
/** Files that describe the repository rather than the site. */
const NOT_PUBLISHED = /^(?:docs\.json|mint\.json|package(?:-lock)?\.json|readme\.md|license(?:\.md)?|contributing\.md|changelog\.md)$/i;

/** Splits the file list into pages, static files, and custom CSS/JS. `.mdx` wins over `.md` for the same path. */
export function classifySourceFiles(files: string[]): SourceInventory {
  const inv: SourceInventory = { pages: new Map(), staticFiles: [], customCss: [], customJs: [], openapiFiles: [] };
  for (const rel of files) {
    const lower = rel.toLowerCase();
    const isPage = lower.endsWith('.mdx') || lower.endsWith('.md');
    if (isPage) {
      if (isSnippet(rel) || NOT_PUBLISHED.test(rel)) continue;
      const path = normalizePagePath(rel);
      if (!inv.pages.has(path) || lower.endsWith('.mdx')) inv.pages.set(path, rel);
      continue;
    }
    if (NOT_PUBLISHED.test(rel)) continue;
    if (/(?:^|\/)(?:openapi|swagger)[^/]*\.(?:json|ya?ml)$/i.test(rel)) inv.openapiFiles.push(rel);
    if (isSnippet(rel)) continue;
    inv.staticFiles.push(rel);
    if (lower.endsWith('.css')) inv.customCss.push(rel);
    else if (lower.endsWith('.js')) inv.customJs.push(rel);
  }
  return inv;
}
