import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { SECTION_CHUNKS_FILE } from '../../../render/index.js';
import { ChunkIndex } from './ChunkIndex.js';
import { queryTerms } from './queryTerms.js';
import { rankSections } from './rankSections.js';
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
  private readonly indexes = new Map<string, { id: string; index: Promise<ChunkIndex> }>();

  constructor(
    private readonly live: FindLiveVersion,
    private readonly options: { maxIndexBytes: number; logger: Logger },
  ) {}

  /** @inheritdoc */
  async search(domain: string, query: SearchQuery): Promise<SearchHit[]> {
    const index = await this.indexOf(domain);
    if (!index) return [];
    const admitted = index.chunks.filter((c) => index.admits(c.chunk, query.filter));
    const hits: SearchHit[] = [];
    for (const r of rankSections(admitted, queryTerms(query.query))) {
      if (hits.length >= query.pageSize) break;
      if (query.scoreThreshold !== undefined && r.share < query.scoreThreshold) continue;
      const c = r.entry.chunk;
      hits.push({
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
          score: Math.round(r.share * 10_000) / 10_000,
        },
      });
    }
    return hits;
  }

  /** @inheritdoc */
  async page(domain: string, path: string): Promise<PageContent | undefined> {
    const version = this.live(domain);
    const page = pagePath(path);
    if (!version || page === null) return undefined;
    // Only listed pages: the chunk index is the list of what search may show (hidden and
    // noindex pages are left out of it at export).
    const index = await this.indexOf(domain);
    if (!index?.scopeOf(page)) return undefined;
    try {
      return { path: page, content: await readFile(join(version.filesDir, `${page}.md`), 'utf8') };
    } catch {
      return undefined;
    }
  }

  /** @inheritdoc */
  async scopeOf(domain: string, path: string): Promise<PageScope | undefined> {
    const page = pagePath(path);
    return page === null ? undefined : (await this.indexOf(domain))?.scopeOf(page);
  }

  /** The live version's index for `domain`, loaded on first use; undefined when nothing is live. */
  private async indexOf(domain: string): Promise<ChunkIndex | undefined> {
    const version = this.live(domain);
    if (!version) {
      this.indexes.delete(domain);
      return undefined;
    }
    let held = this.indexes.get(domain);
    if (held?.id !== version.id) {
      held = { id: version.id, index: ChunkIndex.load(join(version.filesDir, SECTION_CHUNKS_FILE), this.options.maxIndexBytes) };
      this.indexes.set(domain, held);
      held.index.catch((err: unknown) => {
        this.options.logger.warn({ domain, version: version.id, err: (err as Error).message }, 'assistant: section chunks not loaded');
      });
    }
    try {
      return await held.index;
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
