import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { mayAudienceSee } from '../../../platform/access/mayAudienceSee.js';
import type { AccessMap } from '../../../platform/access/PageAccess.js';
import { SECTION_CHUNKS_FILE } from '../../../render/index.js';
import { readAccessMap } from './readAccessMap.js';
import { buildSectionIndex } from './buildSectionIndex.js';
import { queryTerms } from './queryTerms.js';
import { readSections } from './readSections.js';
import type { SectionIndex } from './SectionIndex.js';
import { MAX_TERM_SCORE } from './termScore.js';
import type { PageContent, PageScope, RetrievalAudience, Retriever, SearchHit, SearchQuery } from './Retriever.js';

/** The installed version serving a domain: its deployment id and files folder. */
export interface InstalledVersion {
  id: string;
  filesDir: string;
}

/** Finds the installed live version of `domain` (exactly that site), or undefined. */
export type FindLiveVersion = (domain: string) => InstalledVersion | undefined;

/**
 * Keyword retrieval over the section chunks shipped in each deployed bundle. One index per
 * domain is kept, for its live version only: a new version replaces the old one on the next
 * search, so memory holds one version per site at most. Loads of one version are shared.
 */
export class KeywordRetriever implements Retriever {
  private readonly indexes = new Map<string, { id: string; file: string; index: Promise<SectionIndex>; map: Promise<AccessMap | null> }>();

  constructor(
    private readonly live: FindLiveVersion,
    private readonly options: { maxIndexBytes: number; logger: Logger },
  ) {}

  /** @inheritdoc */
  async search(domain: string, query: SearchQuery, audience: RetrievalAudience): Promise<SearchHit[]> {
    const held = await this.indexOf(domain);
    if (!held) return [];
    const { index, file, may } = held;
    const terms = queryTerms(query.query);
    const ranked = index.rank(terms, (page) => may(page.path, audience) && index.admits(page, query.filter));
    const kept: { id: number; share: number }[] = [];
    for (const r of ranked) {
      if (kept.length >= query.pageSize) break;
      // The share of the best score this query could reach: every term at its best everywhere.
      const share = r.score / (MAX_TERM_SCORE * terms.length);
      if (query.scoreThreshold === undefined || share >= query.scoreThreshold) kept.push({ id: r.id, share });
    }
    const chunks = readSections(
      file,
      index,
      kept.map((k) => k.id),
    );
    return chunks.map((c, i) => ({
      content: c.content,
      path: c.path,
      metadata: {
        title: c.title,
        section: c.section,
        anchor: c.anchor,
        version: c.version,
        language: c.language,
        product: c.product,
        tag: c.tag,
        score: Math.round(kept[i].share * 10_000) / 10_000,
      },
    }));
  }

  /** @inheritdoc */
  async page(domain: string, path: string, audience: RetrievalAudience): Promise<PageContent | undefined> {
    const version = this.live(domain);
    const page = pagePath(path);
    if (!version || page === null) return undefined;
    // Only listed pages: the index is the list of what search may show (hidden and noindex
    // pages are left out of it at export); and only those the audience may open.
    const held = await this.indexOf(domain);
    if (!held?.index.page(page) || !held.may(page, audience)) return undefined;
    try {
      return { path: page, content: await readFile(join(version.filesDir, `${page}.md`), 'utf8') };
    } catch {
      return undefined;
    }
  }

  /** @inheritdoc */
  async scopeOf(domain: string, path: string, audience: RetrievalAudience): Promise<PageScope | undefined> {
    const p = pagePath(path);
    const held = p === null ? undefined : await this.indexOf(domain);
    const page = p === null ? undefined : held?.index.page(p);
    if (!page || !held?.may(page.path, audience)) return undefined;
    return { language: page.language, version: page.version, product: page.product };
  }

  /**
   * The live version's index for `domain`, built on first use, with who may see each page (the
   * bundle's access map); undefined when nothing is live or its index or map cannot be read.
   */
  private async indexOf(
    domain: string,
  ): Promise<{ index: SectionIndex; file: string; may: (page: string, audience: RetrievalAudience) => boolean } | undefined> {
    const version = this.live(domain);
    if (!version) {
      this.indexes.delete(domain);
      return undefined;
    }
    let held = this.indexes.get(domain);
    if (held?.id !== version.id) {
      const file = join(version.filesDir, SECTION_CHUNKS_FILE);
      held = {
        id: version.id,
        file,
        index: buildSectionIndex(file, this.options.maxIndexBytes),
        map: readAccessMap(version.filesDir),
      };
      this.indexes.set(domain, held);
      for (const [what, loading] of [
        ['section chunks', held.index],
        ['access map', held.map],
      ] as const) {
        loading.catch((err: unknown) => {
          this.options.logger.warn({ domain, version: version.id, err: (err as Error).message }, `assistant: ${what} not loaded`);
        });
      }
    }
    try {
      const map = await held.map;
      // A damaged map fails the load (above): retrieval then shows nothing rather than every page.
      const may = (page: string, audience: RetrievalAudience) => audience === 'all' || mayAudienceSee(map, audience, page);
      return { index: await held.index, file: held.file, may };
    } catch {
      return undefined;
    }
  }
}

/**
 * A page path as the chunks name pages (`guides/start`, `index`), from what a caller may send:
 * a leading slash, a `.md` or `.mdx` ending, a trailing slash, `/` for the home page. null for
 * anything that could step outside the version (`..`, backslashes, NUL).
 */
export function pagePath(raw: string): string | null {
  let p = raw.trim().replace(/^\/+/, '').replace(/\/+$/, '');
  p = p.replace(/\.mdx?$/, '').replace(/#.*$/, '');
  if (p === '') p = 'index';
  if (p.split('/').some((s) => s === '..' || s === '.' || s === '') || /[\\\0]/.test(p)) return null;
  return p;
}
