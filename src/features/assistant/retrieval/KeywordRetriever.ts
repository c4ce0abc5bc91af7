import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { mayAudienceSee } from '../../../platform/access/mayAudienceSee.js';
import type { AccessMap } from '../../../platform/access/PageAccess.js';
import { SECTION_CHUNKS_FILE } from '../../../render/index.js';
import { buildSectionIndex } from './buildSectionIndex.js';
import { queryTerms } from './queryTerms.js';
import { readSections } from './readSections.js';
import type { IndexedPage, SectionIndex } from './SectionIndex.js';
import { MAX_TERM_SCORE } from './termScore.js';
import type { PageContent, PageScope, RetrievalAudience, Retriever, SearchHit, SearchQuery } from './Retriever.js';
import { fuseRankings } from './vectors/fuseRankings.js';
import { cosineRanking, type SectionVectors } from './vectors/SectionVectors.js';

/** A version's section vectors: `ready` is set (null: keyword only) once `settled` resolves. */
interface VectorState {
  ready?: Float32Array[] | null;
  /** Set while `ready` is null because the endpoint failed: a later search tries again once it may. */
  retry?: boolean;
  settled?: Promise<void>;
}

/** How deep each list goes into the fusion: the largest page size a search may ask for. */
const FUSE_DEPTH = 50;

/** The installed version serving a domain: its deployment id, files folder and access map. */
export interface InstalledVersion {
  id: string;
  /** The version's own folder: `_enclave/` files are always here. */
  filesDir: string;
  /** Where a served file's bytes are (a layered version reads unchanged files from older versions' folders). */
  pathOf?: (path: string) => string;
  /** The bundle's access map as deployments loaded it (null: no page is marked). */
  access: AccessMap | null;
}

/** Finds the installed live version of `domain` (exactly that site), or undefined. */
export type FindLiveVersion = (domain: string) => InstalledVersion | undefined;

/**
 * Keyword retrieval over the section chunks shipped in each deployed bundle. One index per
 * domain is kept, for its live version only: a new version replaces the old one on the next
 * search, so memory holds one version per site at most. Loads of one version are shared.
 */
export class KeywordRetriever implements Retriever {
  private readonly indexes = new Map<
    string,
    { id: string; file: string; index: Promise<SectionIndex>; map: AccessMap | null; vectors: VectorState }
  >();

  /** With `vectors`, sections are ranked hybrid once their version is embedded; keyword-only until then or without. */
  constructor(
    private readonly live: FindLiveVersion,
    private readonly options: { maxIndexBytes: number; logger: Logger; vectors?: SectionVectors },
  ) {}

  /** @inheritdoc */
  async search(domain: string, query: SearchQuery, audience: RetrievalAudience): Promise<SearchHit[]> {
    const held = await this.indexOf(domain);
    if (!held) return [];
    const { index, file, may } = held;
    const terms = queryTerms(query.query);
    const admit = (page: IndexedPage) => may(page.path, audience) && index.admits(page, query.filter);
    // The share of the best score this query could reach: every term at its best everywhere.
    const keyword = index.rank(terms, admit).map((r) => ({ id: r.id, share: r.score / (MAX_TERM_SCORE * terms.length) }));
    const ranked = (held.vectors && (await this.fused(held.vectors, index, query.query, keyword, admit))) ?? keyword;
    const kept: { id: number; share: number }[] = [];
    for (const r of ranked) {
      if (kept.length >= query.pageSize) break;
      if (query.scoreThreshold === undefined || r.share >= query.scoreThreshold) kept.push(r);
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

  /**
   * The keyword ranking fused with the query's cosine ranking, or undefined (keyword ranking)
   * while the version's vectors are not ready or the query cannot be embedded.
   */
  private async fused(
    vectors: Float32Array[],
    index: SectionIndex,
    query: string,
    keyword: { id: number; share: number }[],
    admit: (page: IndexedPage) => boolean,
  ): Promise<{ id: number; share: number }[] | undefined> {
    const q = await this.options.vectors?.embedQuery(query);
    if (!q) return undefined;
    const admitted = index.parts.pages.map(admit);
    const byVector = cosineRanking(vectors, q, (id) => admitted[index.parts.sectionPage[id]!] === true, FUSE_DEPTH);
    return fuseRankings(
      keyword.slice(0, FUSE_DEPTH).map((k) => k.id),
      byVector,
    );
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
      return { path: page, content: await readFile(version.pathOf?.(`${page}.md`) ?? join(version.filesDir, `${page}.md`), 'utf8') };
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
  ): Promise<
    { index: SectionIndex; file: string; may: (page: string, audience: RetrievalAudience) => boolean; vectors?: Float32Array[] } | undefined
  > {
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
        map: version.access,
        vectors: {},
      };
      this.indexes.set(domain, held);
      this.embedInBackground(held);
      held.index.catch((err: unknown) => {
        this.options.logger.warn({ domain, version: version.id, err: (err as Error).message }, 'assistant: section chunks not loaded');
      });
    } else if (held.vectors.retry && this.options.vectors?.endpointAdmitted()) {
      // The endpoint failed while this version was embedded; the breaker's back-off is over.
      this.embedInBackground(held);
    }
    try {
      // A damaged map fails the version's load in deployments, so it never goes live here.
      const map = held.map;
      const may = (page: string, audience: RetrievalAudience) => audience === 'all' || mayAudienceSee(map, audience, page);
      return { index: await held.index, file: held.file, may, vectors: held.vectors.ready ?? undefined };
    } catch {
      return undefined;
    }
  }

  /**
   * Embeds a newly loaded version's sections off the request path: searches rank by keywords
   * until the vectors are in, so no request waits for a whole version's embedding. Sections
   * embedded by an earlier, failed try come from the cache.
   */
  private embedInBackground(held: { file: string; index: Promise<SectionIndex>; vectors: VectorState }): void {
    const vectors = this.options.vectors;
    if (!vectors) return;
    held.vectors.retry = false;
    held.vectors.settled = held.index
      .then((index) => vectors.load(held.file, index))
      .then(
        (got) => {
          held.vectors.ready = got.vectors;
          held.vectors.retry = got.vectors === null && got.retry;
        },
        () => {
          held.vectors.ready = null;
        },
      );
  }

  /** Resolves once `domain`'s live version is embedded (true) or could not be (false); tests and benches wait on it. */
  async vectorsSettled(domain: string): Promise<boolean> {
    await this.indexOf(domain);
    const held = this.indexes.get(domain);
    await held?.vectors.settled;
    return Boolean(held?.vectors.ready);
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
