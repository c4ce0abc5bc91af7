/** One searchable page: path, title, headings, description, body text. */
export type SearchEntry = [path: string, title: string, headings: string[], description: string, text: string];

/**
 * The search index as a classic script that assigns a global: it loads with a plain `<script>`
 * tag, so search works from `file://` where fetch, modules and workers are blocked.
 */
export function buildSearchIndexScript(entries: SearchEntry[]): string {
  // `</script` and U+2028/9 can't break out of or invalidate a script when escaped like this.
  const json = JSON.stringify({ v: 1, pages: entries }).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `window.__enclaveSearchIndex=${json};\n`;
}
