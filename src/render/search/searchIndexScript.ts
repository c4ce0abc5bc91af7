import type { TextPiece } from '../../bundle/BundleSink.js';

/**
 * One searchable page: path, title, headings, description, body text, then each heading's
 * `[id, offset in text]` (results link to the section that matched) and the page's scope
 * (`language:fr|version:v2`, '' for none: search stays within the reader's scope by default).
 */
export type SearchEntry = [
  path: string,
  title: string,
  headings: string[],
  description: string,
  text: string,
  sections: [string, number][],
  scope: string,
];

/**
 * The search index is a classic script that assigns a global: it loads with a plain `<script>`
 * tag, so search works from `file://` where fetch, modules and workers are blocked. It reads
 * `window.__enclaveSearchIndex={"v":1,"pages":[…]};`, each page one entry of that array.
 */
/**
 * The index's one name in every export: pages link it, and a name that followed its content
 * would change every page whenever any page's text did (see renderSite).
 */
export const SEARCH_INDEX_FILE = '_assets/search-index.js';

const OPENING = 'window.__enclaveSearchIndex={"v":1,"pages":[';
const CLOSING = ']};\n';

/** One page's entry in the index, as JSON. */
export function searchEntryJson(entry: SearchEntry): string {
  // `</script` and U+2028/9 can't break out of or invalidate a script when escaped like this.
  return JSON.stringify(entry)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The index script around `entries` (each from `searchEntryJson`, in order, as text or its UTF-8 bytes), as pieces: it is
 * written while pages render rather than built as one string at the end (megabytes on a large
 * site, at the export's peak memory).
 */
export async function* searchIndexScript(entries: AsyncIterable<TextPiece>): AsyncGenerator<TextPiece> {
  yield OPENING;
  let first = true;
  for await (const entry of entries) {
    if (!first) yield ',';
    first = false;
    yield entry;
  }
  yield CLOSING;
}
