import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { SECTION_CHUNKS_FILE } from '../../../render/index.js';
import { buildSectionIndex } from './buildSectionIndex.js';
import { queryTerms } from './queryTerms.js';
import { readSections } from './readSections.js';
import type { SectionIndex } from './SectionIndex.js';
import { MAX_TERM_SCORE } from './termScore.js';
import type { PageContent, PageScope, Retriever, SearchHit, SearchQuery } from './Retriever.js';

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
  private readonly indexes = new Map<string, { id: string; file: string; index: Promise<SectionIndex> }>();

  constructor(
    private readonly live: FindLiveVersion,
    private readonly options: { maxIndexBytes: number; logger: Logger },
  ) {}

  /** @inheritdoc */
  async search(domain: string, query: SearchQuery): Promise<SearchHit[]> {
    const held = await this.indexOf(domain);
    if (!held) return [];
    const { index, file } = held;
    const terms = queryTerms(query.query);
    const ranked = index.rank(terms, (page) => index.admits(page, query.filter));
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
  async page(domain: string, path: string): Promise<PageContent | undefined> {
    const version = this.live(domain);
    const page = pagePath(path);
    if (!version || page === null) return undefined;
    // Only listed pages: the index is the list of what search may show (hidden and noindex
    // pages are left out of it at export).
    if (!(await this.indexOf(domain))?.index.page(page)) return undefined;
    try {
      return { path: page, content: await readFile(join(version.filesDir, `${page}.md`), 'utf8') };
    } catch {
      return undefined;
    }
  }

  /** @inheritdoc */
  async scopeOf(domain: string, path: string): Promise<PageScope | undefined> {
    const p = pagePath(path);
    const page = p === null ? undefined : (await this.indexOf(domain))?.index.page(p);
    return page && { language: page.language, version: page.version, product: page.product };
  }

  /** The live version's index for `domain`, built on first use; undefined when nothing is live. */
  private async indexOf(domain: string): Promise<{ index: SectionIndex; file: string } | undefined> {
    const version = this.live(domain);
    if (!version) {
      this.indexes.delete(domain);
      return undefined;
    }
    let held = this.indexes.get(domain);
    if (held?.id !== version.id) {
      const file = join(version.filesDir, SECTION_CHUNKS_FILE);
      held = { id: version.id, file, index: buildSectionIndex(file, this.options.maxIndexBytes) };
      this.indexes.set(domain, held);
      held.index.catch((err: unknown) => {
        this.options.logger.warn({ domain, version: version.id, err: (err as Error).message }, 'assistant: section chunks not loaded');
      });
    }
    try {
      return { index: await held.index, file: held.file };
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
