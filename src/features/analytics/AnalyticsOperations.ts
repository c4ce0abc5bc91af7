import { DAY_MS } from '../../platform/Clock.js';
import type { AnalyticsLog } from './AnalyticsLog.js';
import type { DayRollup } from './DayRollup.js';

/** Which events a report covers: a range of epoch ms (from inclusive, to exclusive) and optionally one site. */
export interface AnalyticsRange {
  fromMs?: number;
  toMs?: number;
  domain?: string;
}

/** Human / AI / total counts. */
export interface KindCounts {
  human: number;
  ai: number;
  total: number;
}

/** One row of /views or /visitors. */
export interface PageCounts extends KindCounts {
  path: string;
}

/** One day of a time series. */
export interface DayCounts extends KindCounts {
  date: string;
}

/** One row of /searches. */
export interface SearchSummary {
  searchQuery: string;
  hits: number;
  ctr: number;
  topClickedPage: string | null;
  lastSearchedAt: string;
  /** Results the query showed the last time it was searched (0: a search with no results). */
  results: number;
}

/** A report: totals, one page of rows, and (with `groupBy=day`) the daily series. */
export interface CountsReport {
  totals: KindCounts;
  rows: PageCounts[];
  hasMore: boolean;
  days?: DayCounts[];
}

/**
 * Analytics are kept per UTC day, so a bound inside a day takes in the whole day: `fromMs`
 * rounds down to its midnight, `toMs` up to the next one (a bound at midnight stays exact).
 */
function dayRange(range: AnalyticsRange): [number, number] {
  return [range.fromMs === undefined ? -Infinity : Math.floor(range.fromMs / DAY_MS), range.toMs === undefined ? Infinity : Math.ceil(range.toMs / DAY_MS)];
}

const counts = (human: number, ai: number): KindCounts => ({ human, ai, total: human + ai });
const byTotalThenPath = (a: PageCounts, b: PageCounts) => b.total - a.total || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Views per page, most viewed first, with totals; `version` narrows to one deployed version. */
export function reportViews(log: AnalyticsLog, projectId: string, range: AnalyticsRange & { version?: string }, page: PageRequest): CountsReport {
  return sumByPath(log, projectId, range, page, function* (rollup) {
    for (const row of rollup.views.values()) {
      if ((range.domain === undefined || row.domain === range.domain) && (range.version === undefined || row.version === range.version)) yield row;
    }
  });
}

/**
 * Distinct visitors per page, with site-wide totals (a reader of three pages is one visitor of
 * the site). The salt behind a visitor id changes every UTC day, so nobody can be followed
 * across days: a range's figure is the sum of its days'.
 */
export function reportVisitors(log: AnalyticsLog, projectId: string, range: AnalyticsRange, page: PageRequest): CountsReport {
  return sumByPath(log, projectId, range, page, function* (rollup) {
    for (const row of rollup.visitors.values()) if (range.domain === undefined || row.domain === range.domain) yield row;
  });
}

/** Paging of a report, and whether to add the daily series. */
export interface PageRequest {
  limit: number;
  offset: number;
  byDay: boolean;
}

/**
 * Adds up the rows `rowsOf` picks from each day in range per path. A row with a null path is
 * a site-wide figure: when a day has any, the day's totals are those, not the pages' sum.
 */
function sumByPath(log: AnalyticsLog, projectId: string, range: AnalyticsRange, page: PageRequest, rowsOf: (rollup: DayRollup) => Iterable<{ path: string | null; human: number; ai: number }>): CountsReport {
  const perPath = new Map<string, [number, number]>();
  const days: DayCounts[] = [];
  let human = 0;
  let ai = 0;
  for (const { day, rollup } of log.rollups(projectId, ...dayRange(range))) {
    const pages = [0, 0];
    const site = [0, 0];
    let siteRows = false;
    for (const row of rowsOf(rollup)) {
      if (row.path === null) {
        siteRows = true;
        site[0] += row.human;
        site[1] += row.ai;
        continue;
      }
      const sum = perPath.get(row.path) ?? [0, 0];
      sum[0] += row.human;
      sum[1] += row.ai;
      perPath.set(row.path, sum);
      pages[0] += row.human;
      pages[1] += row.ai;
    }
    const [dayHuman, dayAi] = siteRows ? site : pages;
    human += dayHuman;
    ai += dayAi;
    if (page.byDay) days.push({ date: isoDay(day), ...counts(dayHuman, dayAi) });
  }
  return { totals: counts(human, ai), ...pageOf(perPath, page), ...(page.byDay ? { days } : {}) };
}

/** Search queries, most searched first; `noResults` keeps those whose last search found nothing. */
export function reportSearches(log: AnalyticsLog, projectId: string, range: AnalyticsRange & { noResults?: boolean }, page: { limit: number; offset: number }): { searches: SearchSummary[]; totalSearches: number; hasMore: boolean } {
  const byQuery = new Map<string, { hits: number; results: number; lastAt: number; clicks: Map<string, number> }>();
  let totalSearches = 0;
  for (const { rollup } of log.rollups(projectId, ...dayRange(range))) {
    for (const row of rollup.searches.values()) {
      if (range.domain !== undefined && row.domain !== range.domain) continue;
      totalSearches += row.count;
      let sum = byQuery.get(row.query);
      if (!sum) byQuery.set(row.query, (sum = { hits: 0, results: row.results, lastAt: row.lastAt, clicks: new Map() }));
      sum.hits += row.count;
      if (row.count > 0 && row.lastAt >= sum.lastAt) {
        sum.lastAt = row.lastAt;
        sum.results = row.results;
      }
      for (const [path, n] of row.clicks) sum.clicks.set(path, (sum.clicks.get(path) ?? 0) + n);
    }
  }
  const all: SearchSummary[] = [];
  for (const [query, s] of byQuery) {
    // A click whose search fell outside the range has no search to belong to.
    if (s.hits === 0 || (range.noResults && s.results > 0)) continue;
    let clicks = 0;
    let top: [string, number] | null = null;
    for (const entry of s.clicks) {
      clicks += entry[1];
      if (!top || entry[1] > top[1] || (entry[1] === top[1] && entry[0] < top[0])) top = entry;
    }
    all.push({ searchQuery: query, hits: s.hits, ctr: Math.round((Math.min(clicks, s.hits) / s.hits) * 10_000) / 10_000, topClickedPage: top?.[0] ?? null, lastSearchedAt: new Date(s.lastAt).toISOString(), results: s.results });
  }
  all.sort((a, b) => b.hits - a.hits || (a.searchQuery < b.searchQuery ? -1 : a.searchQuery > b.searchQuery ? 1 : 0));
  return { searches: all.slice(page.offset, page.offset + page.limit), totalSearches, hasMore: all.length > page.offset + page.limit };
}

function pageOf(perPath: Map<string, [number, number]>, page: { limit: number; offset: number }): { rows: PageCounts[]; hasMore: boolean } {
  const rows: PageCounts[] = [];
  for (const [path, [human, ai]] of perPath) if (human + ai > 0) rows.push({ path, ...counts(human, ai) });
  rows.sort(byTotalThenPath);
  return { rows: rows.slice(page.offset, page.offset + page.limit), hasMore: rows.length > page.offset + page.limit };
}

function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
