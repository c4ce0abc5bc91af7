// Globals the browser scripts under src/render/**/assets share with the page (tsconfig.browser.json).

interface Window {
  /** Mermaid's global, when the page loaded its script (diagrams). */
  mermaid?: {
    initialize(config: Record<string, unknown>): void;
    render(id: string, text: string): Promise<{ svg: string }>;
  };
  /** The site's search index, set by the search-index script that theme.js loads on demand. */
  __enclaveSearchIndex?: { pages?: any[] };
  /** The page's interface text in its language (set by theme.js): the string for `key`, else `english`. */
  __enclaveText?: (key: string, english: string) => string;
  /** Copies text (clipboard API on a secure page, selection elsewhere); set by components.js. */
  __enclaveCopyText?: (text: string) => Promise<unknown>;
  /** Shared by feedback.js with askAi.js: its element builder, page path and same-origin probe. */
  // biome-ignore lint/suspicious/noExplicitAny: callers use the element as the tag they asked for (a form, a textarea)
  __enclaveEl?: (tag: string, attrs?: Record<string, unknown>, children?: (Node | null)[]) => any;
  __enclavePagePath?: () => string;
  __enclaveWhenServed?: (then: () => void) => void;
}
