import type { ReaderAudience } from '../../../platform/access/mayAudienceSee.js';

/** What a search may be narrowed to; each field absent means "the default" (see Retriever.search). */
export interface SearchFilter {
  version?: string;
  language?: string;
  /** The page's frontmatter `tag`. */
  tag?: string;
  /** Reader groups the caller belongs to (reader sign-in); the routes turn them into a RetrievalAudience. */
  groups?: string[];
}

/**
 * Whose pages retrieval may show: every page (`'all'`, a site without reader sign-in and no
 * groups given), or only those a reader audience may open (see mayAudienceSee).
 */
export type RetrievalAudience = 'all' | ReaderAudience;

/** A search over one site's sections. */
export interface SearchQuery {
  query: string;
  /** 1–50. */
  pageSize: number;
  /** Hits scoring below this (0–1) are left out. */
  scoreThreshold?: number;
  filter?: SearchFilter;
}

/** One section that matched, in the hosted search API's shape. */
export interface SearchHit {
  /** The section's Markdown. */
  content: string;
  /** The page path (`guides/start`); with `metadata.anchor`, the link to the section. */
  path: string;
  metadata: {
    title: string;
    section: string;
    anchor: string;
    version: string | null;
    language: string | null;
    product: string | null;
    tag: string | null;
    /** 0–1: the share of the best possible score for this query. */
    score: number;
  };
}

/** A page's Markdown copy. */
export interface PageContent {
  path: string;
  content: string;
}

/** The language, version and product a page belongs to (null where the site has none). */
export interface PageScope {
  language: string | null;
  version: string | null;
  product: string | null;
}

/**
 * Retrieval over the live version of a site: the search, page and answer endpoints and the MCP
 * tools all ask this, so they rank alike. Domains are assumed known and allowed (the caller
 * checked the key); a site with nothing deployed has no hits and no pages. Every call names its
 * audience: a page it may not open is neither ranked, read nor scoped, exactly as if missing.
 */
export interface Retriever {
  /**
   * Sections matching `query.query`, best first. Without `filter.version` / `filter.language`,
   * the site's default version and language (the first its navigation lists) are searched.
   */
  search(domain: string, query: SearchQuery, audience: RetrievalAudience): Promise<SearchHit[]>;
  /** The Markdown copy of page `path` (`/guides/start`, `guides/start.md` …), or undefined (also when `audience` may not open it). */
  page(domain: string, path: string, audience: RetrievalAudience): Promise<PageContent | undefined>;
  /** The scope of page `path` (for a filter that defaults to the reader's current page), or undefined. */
  scopeOf(domain: string, path: string, audience: RetrievalAudience): Promise<PageScope | undefined>;
}
