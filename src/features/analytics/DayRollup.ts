import type { AnalyticsEvent } from './AnalyticsEvent.js';
import type { TextInterner } from '../../platform/TextInterner.js';
import { VisitorSketch, type VisitorSketchJson } from './VisitorSketch.js';

/** Views of one page of one deployed version on one day. */
export interface ViewRow {
  domain: string;
  version: string;
  path: string;
  /** `path` numbered by the log's TextInterner. */
  pathId: number;
  human: number;
  ai: number;
}

/** Distinct visitors of one page (any version), or of a whole site when `path` is null. */
export interface VisitorRow {
  domain: string;
  path: string | null;
  /** `path` numbered, -1 for the site-wide row. */
  pathId: number;
  readonly human: number;
  readonly ai: number;
}

/** One search query on one day. */
export interface SearchRow {
  domain: string;
  query: string;
  /** `query` numbered by the log's TextInterner. */
  queryId: number;
  count: number;
  /** Results shown the last time it was searched. */
  results: number;
  lastAt: number;
  clicks: Map<string, number>;
}

/** The persisted form of a rollup (see DayRollup.toJSON). */
export interface DayRollupJson {
  rawBytes: number;
  views: [string, string, string, number, number][];
  visitors: [string, string | null, number, number][];
  searches: [string, string, number, number, number, [string, number][]][];
  /** The open day's sketches (human, ai) per visitors row, in the same order; absent once closed. */
  sketches?: [VisitorSketchJson, VisitorSketchJson][];
}

/**
 * What a day's rows are folded into once it holds its cap: a page path can't look like this
 * (paths start with `/`); a reader who types it as a query lands in the same row.
 */
export const FOLDED = '(other)';

/**
 * Rows one day may hold. Pages come from the served bundles, but search queries are whatever
 * readers type: past these caps new pages or queries are counted in one `(other)` row per
 * site, so a flood of unique queries costs a fixed amount of memory.
 */
export const ROLLUP_CAPS = { views: 5000, visitors: 2000, searches: 5000, clicksPerQuery: 20, closedSearches: 1000 } as const;

/** A visitors row: counts from its sketches while the day is open, stored figures once closed. */
class OpenVisitorRow implements VisitorRow {
  readonly humans = new VisitorSketch();
  readonly ais = new VisitorSketch();
  constructor(
    readonly domain: string,
    readonly path: string | null,
    public pathId: number,
  ) {}
  get human(): number {
    return this.humans.count();
  }
  get ai(): number {
    return this.ais.count();
  }
}

/**
 * Everything the analytics API reports for one UTC day of one project, kept as counts so a
 * query adds up a few hundred rows per day instead of scanning millions of events. While the
 * day is open each visitors row holds a fixed-size sketch of the visitor ids seen (see
 * VisitorSketch), so a flood of new visitors costs no memory per visitor; a closed day keeps
 * only the counts. Rows are capped per day (ROLLUP_CAPS), the tail folded into `(other)`.
 */
export class DayRollup {
  readonly views = new Map<string, ViewRow>();
  readonly visitors = new Map<string, VisitorRow>();
  readonly searches = new Map<string, SearchRow>();
  private open = true;

  constructor(private texts: TextInterner) {}

  /** Whether visitors can still be counted (false once closed or restored closed). */
  get isOpen(): boolean {
    return this.open;
  }

  /** Adds one event. */
  add(e: AnalyticsEvent): void {
    if (e.kind === 'view') {
      const path = this.views.size < ROLLUP_CAPS.views || this.views.has(`${e.domain}\n${e.version}\n${e.path}`) ? e.path : FOLDED;
      const key = `${e.domain}\n${e.version}\n${path}`;
      let row = this.views.get(key);
      if (!row) this.views.set(key, (row = { domain: e.domain, version: e.version, path, pathId: this.texts.idOf(path), human: 0, ai: 0 }));
      if (e.ai) row.ai++;
      else row.human++;
      this.countVisitor(e.domain, e.path, e.ai, e.visitor);
      this.countVisitor(e.domain, null, e.ai, e.visitor);
      return;
    }
    const row = this.searchRow(e.domain, e.query, e.at);
    if (e.kind === 'search') {
      row.count++;
      row.results = e.results;
      row.lastAt = Math.max(row.lastAt, e.at);
    } else {
      const path = row.clicks.size < ROLLUP_CAPS.clicksPerQuery || row.clicks.has(e.path) ? e.path : FOLDED;
      row.clicks.set(path, (row.clicks.get(path) ?? 0) + 1);
    }
  }

  /**
   * Ends the day: visitor sketches become plain counts, and only the most searched queries
   * keep rows of their own (the rest fold into `(other)`), so 400 kept days stay small.
   */
  close(): void {
    if (!this.open) return;
    this.open = false;
    for (const [key, row] of this.visitors)
      this.visitors.set(key, { domain: row.domain, path: row.path, pathId: row.pathId, human: row.human, ai: row.ai });
    if (this.searches.size <= ROLLUP_CAPS.closedSearches) return;
    const kept = [...this.searches.values()].filter((r) => r.query !== FOLDED);
    kept.sort((a, b) => b.count - a.count || (a.query < b.query ? -1 : 1));
    const tail = kept.splice(ROLLUP_CAPS.closedSearches - new Set(kept.map((r) => r.domain)).size);
    for (const row of tail) {
      this.searches.delete(`${row.domain}\n${row.query}`);
      const other = this.foldedSearchRow(row.domain, row.lastAt);
      other.count += row.count;
      other.lastAt = Math.max(other.lastAt, row.lastAt);
      for (const n of row.clicks.values()) other.clicks.set(FOLDED, (other.clicks.get(FOLDED) ?? 0) + n);
    }
  }

  /** Numbers every text again with `texts` (the log drops texts no kept day uses). */
  reintern(texts: TextInterner): void {
    this.texts = texts;
    for (const row of this.views.values()) row.pathId = texts.idOf(row.path);
    for (const row of this.visitors.values()) row.pathId = row.path === null ? -1 : texts.idOf(row.path);
    for (const row of this.searches.values()) row.queryId = texts.idOf(row.query);
  }

  /** The persisted form; `rawBytes` is the length of the event segment it was built from. */
  toJSON(rawBytes: number): DayRollupJson {
    const visitors = [...this.visitors.values()];
    return {
      rawBytes,
      views: [...this.views.values()].map((r) => [r.domain, r.version, r.path, r.human, r.ai]),
      visitors: visitors.map((r) => [r.domain, r.path, r.human, r.ai]),
      searches: [...this.searches.values()].map((r) => [r.domain, r.query, r.count, r.results, r.lastAt, [...r.clicks]]),
      ...(this.open ? { sketches: visitors.map((r) => [(r as OpenVisitorRow).humans.toJSON(), (r as OpenVisitorRow).ais.toJSON()]) } : {}),
    };
  }

  /**
   * Rebuilds a day from its persisted form: open (visitors still counted) when it carries
   * sketches, closed otherwise. Throws on a form it can't read.
   */
  static fromJSON(json: DayRollupJson, texts: TextInterner): DayRollup {
    const day = new DayRollup(texts);
    if (json.sketches !== undefined && (!Array.isArray(json.sketches) || json.sketches.length !== json.visitors.length))
      throw new Error('damaged checkpoint: one pair of sketches per visitors row');
    day.open = json.sketches !== undefined;
    for (const [domain, version, path, human, ai] of json.views)
      day.views.set(`${domain}\n${version}\n${path}`, { domain, version, path, pathId: texts.idOf(path), human, ai });
    json.visitors.forEach(([domain, path, human, ai], i) => {
      const pathId = path === null ? -1 : texts.idOf(path);
      const key = `${domain}\n${path ?? ''}`;
      if (!day.open) {
        day.visitors.set(key, { domain, path, pathId, human, ai });
        return;
      }
      const [humans, ais] = (json.sketches as [VisitorSketchJson, VisitorSketchJson][])[i];
      const row = new OpenVisitorRow(domain, path, pathId);
      const restored = [VisitorSketch.fromJSON(humans), VisitorSketch.fromJSON(ais)];
      if (!restored[0] || !restored[1]) throw new Error('damaged visitor sketch');
      Object.assign(row, { humans: restored[0], ais: restored[1] });
      day.visitors.set(key, row);
    });
    for (const [domain, query, count, results, lastAt, clicks] of json.searches) {
      day.searches.set(`${domain}\n${query}`, {
        domain,
        query,
        queryId: texts.idOf(query),
        count,
        results,
        lastAt,
        clicks: new Map(clicks),
      });
    }
    return day;
  }

  private countVisitor(domain: string, page: string | null, ai: boolean, visitor: string): void {
    // A closed day no longer knows who was seen: late events count as views only.
    if (!this.open) return;
    let path = page;
    let key = `${domain}\n${path ?? ''}`;
    if (path !== null && this.visitors.size >= ROLLUP_CAPS.visitors && !this.visitors.has(key)) {
      path = FOLDED;
      key = `${domain}\n${FOLDED}`;
    }
    let row = this.visitors.get(key) as OpenVisitorRow | undefined;
    if (!row) this.visitors.set(key, (row = new OpenVisitorRow(domain, path, path === null ? -1 : this.texts.idOf(path))));
    (ai ? row.ais : row.humans).add(visitor);
  }

  private searchRow(domain: string, query: string, at: number): SearchRow {
    const row = this.searches.get(`${domain}\n${query}`);
    if (row) return row;
    if (this.searches.size >= ROLLUP_CAPS.searches) return this.foldedSearchRow(domain, at);
    return this.newSearchRow(domain, query, at);
  }

  private foldedSearchRow(domain: string, at: number): SearchRow {
    return this.searches.get(`${domain}\n${FOLDED}`) ?? this.newSearchRow(domain, FOLDED, at);
  }

  private newSearchRow(domain: string, query: string, at: number): SearchRow {
    const row: SearchRow = { domain, query, queryId: this.texts.idOf(query), count: 0, results: 0, lastAt: at, clicks: new Map() };
    this.searches.set(`${domain}\n${query}`, row);
    return row;
  }
}
