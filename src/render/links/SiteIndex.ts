/** What exists in the bundle being built, for resolving links. */
export interface SiteIndex {
  /** Page paths (`guides/start`, `index`). */
  pages: ReadonlySet<string>;
  /** Redirect source paths (normalised like pages); each gets a forwarding HTML page. */
  redirects: ReadonlySet<string>;
  /** Static files copied as-is, docs-relative (`images/a.png`). */
  files: ReadonlySet<string>;
}

/** The bundle file that holds a page: `guides/start` → `guides/start.html`. */
export function pageFile(path: string): string {
  return `${path}.html`;
}
