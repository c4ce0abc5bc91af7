import type { JoinedStrings } from './JoinedStrings.js';
import type { PageScope, SearchFilter } from './Retriever.js';
import { termScore } from './termScore.js';

/** A page of the index; its sections are `first … first + count - 1`. */
export interface IndexedPage extends PageScope {
  path: string;
  title: string;
  titleLower: string;
  tag: string | null;
  first: number;
  count: number;
}

/** Which sections hold a body token, and how often (parallel arrays). */
export interface Postings {
  ids: Int32Array;
  counts: Uint16Array;
}

/** The parts of an index, as built by buildSectionIndex. */
export interface SectionIndexParts {
  pages: IndexedPage[];
  /** Per section: its page, heading, anchor, and where its line is in the chunk file. */
  sectionPage: Int32Array;
  sectionHeading: string[];
  sectionAnchor: string[];
  lineStart: Float64Array;
  lineLength: Int32Array;
  /** Lower-case page titles and descriptions (by page), headings (by section), body tokens. */
  titles: JoinedStrings;
  descriptions: JoinedStrings;
  headings: JoinedStrings;
  vocabulary: JoinedStrings;
  postings: Postings[];
}

/** A section that matched: how many terms, its score, and the share of the best possible. */
export interface RankedSection {
  id: number;
  matched: number;
  score: number;
}

/**
 * One deployed version's sections, indexed for the site search box's substring matching: page
 * titles, descriptions, headings and the body's distinct words are each one joined string
 * (JoinedStrings), and body words point to the sections holding them (postings). A term is looked
 * up in those, never in the text itself, so a search touches only the sections that match; the
 * text stays on disk (the chunk file) until a hit is returned.
 */
export class SectionIndex {
  readonly defaults: { language: string | null; version: string | null };
  private readonly byPath = new Map<string, number>();
  private readonly score: Float64Array;
  private readonly matched: Uint8Array;
  /** One term's findings, by section and by page; cleared after each term (a search is synchronous). */
  private readonly termScratch: {
    seen: Uint8Array;
    headed: Uint8Array;
    body: Uint32Array;
    pageSeen: Uint8Array;
    titleAt: Int32Array;
    described: Uint8Array;
  };

  constructor(readonly parts: SectionIndexParts) {
    let language: string | null = null;
    let version: string | null = null;
    parts.pages.forEach((page, i) => {
      language ??= page.language;
      version ??= page.version;
      if (!this.byPath.has(page.path)) this.byPath.set(page.path, i);
    });
    this.defaults = { language, version };
    this.score = new Float64Array(parts.sectionPage.length);
    this.matched = new Uint8Array(parts.sectionPage.length);
    const sections = parts.sectionPage.length;
    const pageCount = parts.pages.length;
    this.termScratch = {
      seen: new Uint8Array(sections),
      headed: new Uint8Array(sections),
      body: new Uint32Array(sections),
      pageSeen: new Uint8Array(pageCount),
      titleAt: new Int32Array(pageCount).fill(-1),
      described: new Uint8Array(pageCount),
    };
  }

  /** The page at `path` (no leading slash), or undefined. */
  page(path: string): IndexedPage | undefined {
    const i = this.byPath.get(path);
    return i === undefined ? undefined : this.parts.pages[i];
  }

  /** True when page `page` passes `filter`, unset version and language meaning the defaults. */
  admits(page: IndexedPage, filter: SearchFilter | undefined): boolean {
    const version = filter?.version ?? this.defaults.version;
    const language = filter?.language ?? this.defaults.language;
    if (version !== null && page.version !== null && page.version !== version) return false;
    if (language !== null && page.language !== null && page.language !== language) return false;
    return filter?.tag === undefined || page.tag === filter.tag;
  }

  /**
   * Sections matching any of `terms` on admitted pages: those matching more terms first, then by
   * score. Whenever some section matches every term, the top of the list is what the search
   * box's every-term rule would keep. Synchronous: the scratch arrays are this index's own.
   */
  rank(terms: string[], admit: (page: IndexedPage) => boolean): RankedSection[] {
    // Pages are admitted up front: a site with several versions keeps most sections out of the scoring.
    const admitted = new Uint8Array(this.parts.pages.length);
    this.parts.pages.forEach((page, i) => {
      admitted[i] = admit(page) ? 1 : 0;
    });
    const touched: number[] = [];
    for (const term of terms) this.scoreTerm(term, admitted, touched);
    const ranked: RankedSection[] = [];
    for (const id of touched) {
      ranked.push({ id, matched: this.matched[id], score: this.score[id] });
      this.score[id] = 0;
      this.matched[id] = 0;
    }
    return ranked.sort((a, b) => b.matched - a.matched || b.score - a.score || a.id - b.id);
  }

  /** Adds one term's score to every section it occurs in; `touched` collects sections scored the first time. */
  private scoreTerm(term: string, admitted: Uint8Array, touched: number[]): void {
    const { pages, sectionPage } = this.parts;
    const s = this.termScratch;
    const pagesHit: number[] = [];
    const hitPage = (page: number) => {
      if (s.pageSeen[page] === 0) {
        s.pageSeen[page] = 1;
        pagesHit.push(page);
      }
    };
    this.parts.titles.forEachContaining(term, (page, at) => {
      if (!admitted[page]) return;
      s.titleAt[page] = at;
      hitPage(page);
    });
    this.parts.descriptions.forEachContaining(term, (page) => {
      if (!admitted[page]) return;
      s.described[page] = 1;
      hitPage(page);
    });
    const candidates: number[] = [];
    const hitSection = (id: number) => {
      if (s.seen[id] === 0) {
        s.seen[id] = 1;
        candidates.push(id);
      }
    };
    this.parts.headings.forEachContaining(term, (id) => {
      if (!admitted[sectionPage[id]]) return;
      s.headed[id] = 1;
      hitSection(id);
    });
    this.parts.vocabulary.forEachContaining(term, (word, at) => {
      const occurrences = countFrom(this.parts.vocabulary.at(word), term, at);
      const { ids, counts } = this.parts.postings[word];
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i];
        if (!admitted[sectionPage[id]]) continue;
        s.body[id] += occurrences * counts[i];
        hitSection(id);
      }
    });
    for (const page of pagesHit) for (let id = pages[page].first; id < pages[page].first + pages[page].count; id++) hitSection(id);
    this.addTermScores(term, candidates, touched);
    for (const page of pagesHit) {
      s.pageSeen[page] = 0;
      s.titleAt[page] = -1;
      s.described[page] = 0;
    }
  }

  /** Scores one term in each candidate section from the scratch findings, and clears the section's findings. */
  private addTermScores(term: string, candidates: number[], touched: number[]): void {
    const { pages, sectionPage } = this.parts;
    const s = this.termScratch;
    for (const id of candidates) {
      const page = sectionPage[id];
      const score = termScore({
        titleAt: s.titleAt[page],
        titleIsTerm: pages[page].titleLower === term,
        inSection: s.headed[id] === 1,
        inDescription: s.described[page] === 1,
        bodyCount: s.body[id],
      });
      s.seen[id] = 0;
      s.headed[id] = 0;
      s.body[id] = 0;
      if (score === 0) continue;
      if (this.matched[id] === 0) touched.push(id);
      this.matched[id] += 1;
      this.score[id] += score;
    }
  }
}

/** Non-overlapping occurrences of `term` in `text`, the first at `from`. */
function countFrom(text: string, term: string, from: number): number {
  let n = 0;
  for (let at = from; at >= 0; at = text.indexOf(term, at + term.length)) n++;
  return n;
}
