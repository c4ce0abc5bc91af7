import type { AnalyticsEvent } from './AnalyticsEvent.js';
import type { TextInterner } from '../../platform/TextInterner.js';

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
  human: number;
  ai: number;
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
}

/**
 * Everything the analytics API reports for one UTC day of one project, kept as counts so a
 * query adds up a few hundred rows per day instead of scanning millions of events. While the
 * day is open it also holds the visitor hashes seen, to count each visitor once per page and
 * once per site; a closed day keeps only the counts (and is persisted so startup skips its events).
 */
export class DayRollup {
  readonly views = new Map<string, ViewRow>();
  readonly visitors = new Map<string, VisitorRow>();
  readonly searches = new Map<string, SearchRow>();
  private seen: Set<string> | null = new Set();

  constructor(private readonly texts: TextInterner) {}

  /** Adds one event. */
  add(e: AnalyticsEvent): void {
    if (e.kind === 'view') {
      const key = `${e.domain}\n${e.version}\n${e.path}`;
      let row = this.views.get(key);
      if (!row)
        this.views.set(
          key,
          (row = { domain: e.domain, version: e.version, path: e.path, pathId: this.texts.idOf(e.path), human: 0, ai: 0 }),
        );
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
      row.clicks.set(e.path, (row.clicks.get(e.path) ?? 0) + 1);
    }
  }

  /** Forgets the visitor hashes once the day is over: its counts can no longer change meaningfully. */
  close(): void {
    this.seen = null;
  }

  /** The persisted form; `rawBytes` is the length of the event segment it was built from. */
  toJSON(rawBytes: number): DayRollupJson {
    return {
      rawBytes,
      views: [...this.views.values()].map((r) => [r.domain, r.version, r.path, r.human, r.ai]),
      visitors: [...this.visitors.values()].map((r) => [r.domain, r.path, r.human, r.ai]),
      searches: [...this.searches.values()].map((r) => [r.domain, r.query, r.count, r.results, r.lastAt, [...r.clicks]]),
    };
  }

  /** Rebuilds a closed day from its persisted form. */
  static fromJSON(json: DayRollupJson, texts: TextInterner): DayRollup {
    const day = new DayRollup(texts);
    day.seen = null;
    for (const [domain, version, path, human, ai] of json.views)
      day.views.set(`${domain}\n${version}\n${path}`, { domain, version, path, pathId: texts.idOf(path), human, ai });
    for (const [domain, path, human, ai] of json.visitors)
      day.visitors.set(`${domain}\n${path ?? ''}`, { domain, path, pathId: path === null ? -1 : texts.idOf(path), human, ai });
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

  private countVisitor(domain: string, path: string | null, ai: boolean, visitor: string): void {
    // A closed day (restored from its rollup) no longer knows who was seen: late events count as views only.
    if (!this.seen) return;
    const key = `${domain}\n${path ?? ''}`;
    const seenKey = `${key}\n${ai ? 1 : 0}\n${visitor}`;
    if (this.seen.has(seenKey)) return;
    this.seen.add(seenKey);
    let row = this.visitors.get(key);
    if (!row) this.visitors.set(key, (row = { domain, path, pathId: path === null ? -1 : this.texts.idOf(path), human: 0, ai: 0 }));
    if (ai) row.ai++;
    else row.human++;
  }

  private searchRow(domain: string, query: string, at: number): SearchRow {
    const key = `${domain}\n${query}`;
    let row = this.searches.get(key);
    if (!row)
      this.searches.set(
        key,
        (row = { domain, query, queryId: this.texts.idOf(query), count: 0, results: 0, lastAt: at, clicks: new Map() }),
      );
    return row;
  }
}
