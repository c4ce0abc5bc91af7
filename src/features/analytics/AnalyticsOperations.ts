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
  return [
    range.fromMs === undefined ? -Infinity : Math.floor(range.fromMs / DAY_MS),
    range.toMs === undefined ? Infinity : Math.ceil(range.toMs / DAY_MS),
  ];
}

const counts = (human: number, ai: number): KindCounts => ({ human, ai, total: human + ai });
const byTotalThenPath = (a: PageCounts, b: PageCounts) => b.total - a.total || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Views per page, most viewed first, with totals; `version` narrows to one deployed version. */
export function reportViews(
  log: AnalyticsLog,
  projectId: string,
  range: AnalyticsRange & { version?: string },
  page: PageRequest,
): CountsReport {
  return sumByPath(
    log,
    projectId,
    range,
    page,
    (rollup) => rollup.views.values(),
    (row) => (range.domain === undefined || row.domain === range.domain) && (range.version === undefined || row.version === range.version),
  );
}

/**
 * Distinct visitors per page, with site-wide totals (a reader of three pages is one visitor of
 * the site). The salt behind a visitor id changes every UTC day, so nobody can be followed
 * across days: a range's figure is the sum of its days'.
 */
export function reportVisitors(log: AnalyticsLog, projectId: string, range: AnalyticsRange, page: PageRequest): CountsReport {
  return sumByPath(
    log,
    projectId,
    range,
    page,
    (rollup) => rollup.visitors.values(),
    (row) => range.domain === undefined || row.domain === range.domain,
  );
}

/** Paging of a report, and whether to add the daily series. */
export interface PageRequest {
  limit: number;
  offset: number;
  byDay: boolean;
}

interface CountRow {
  domain: string;
  pathId: number;
  human: number;
  ai: number;
}

/**
 * Adds up per path the rows `rowsOf` gives for each day in range that `keep` accepts, in arrays
 * indexed by path number. A row with pathId -1 is a site-wide figure: when a day has any, the
 * day's totals are those, not the pages' sum.
 */
function sumByPath<R extends CountRow>(
  log: AnalyticsLog,
  projectId: string,
  range: AnalyticsRange,
  page: PageRequest,
  rowsOf: (rollup: DayRollup) => Iterable<R>,
  keep: (row: R) => boolean,
): CountsReport {
  const size = log.texts.size;
  const human = new Float64Array(size);
  const ai = new Float64Array(size);
  const days: DayCounts[] = [];
  let totalHuman = 0;
  let totalAi = 0;
  for (const { day, rollup } of log.rollups(projectId, ...dayRange(range))) {
    let pagesHuman = 0;
    let pagesAi = 0;
    let siteHuman = 0;
    let siteAi = 0;
    let siteRows = false;
    for (const row of rowsOf(rollup)) {
      if (!keep(row)) continue;
      if (row.pathId < 0) {
        siteRows = true;
        siteHuman += row.human;
        siteAi += row.ai;
        continue;
      }
      human[row.pathId] += row.human;
      ai[row.pathId] += row.ai;
      pagesHuman += row.human;
      pagesAi += row.ai;
    }
    const dayHuman = siteRows ? siteHuman : pagesHuman;
    const dayAi = siteRows ? siteAi : pagesAi;
    totalHuman += dayHuman;
    totalAi += dayAi;
    if (page.byDay) days.push({ date: isoDay(day), ...counts(dayHuman, dayAi) });
  }
  const rows: PageCounts[] = [];
  for (let id = 0; id < size; id++) if (human[id] + ai[id] > 0) rows.push({ path: log.texts.textOf(id), ...counts(human[id], ai[id]) });
  rows.sort(byTotalThenPath);
  return {
    totals: counts(totalHuman, totalAi),
    rows: rows.slice(page.offset, page.offset + page.limit),
    hasMore: rows.length > page.offset + page.limit,
    ...(page.byDay ? { days } : {}),
  };
}

/** Search queries, most searched first; `noResults` keeps those whose last search found nothing. */
export function reportSearches(
  log: AnalyticsLog,
  projectId: string,
  range: AnalyticsRange & { noResults?: boolean },
  page: { limit: number; offset: number },
): { searches: SearchSummary[]; totalSearches: number; hasMore: boolean } {
  const size = log.texts.size;
  const hits = new Float64Array(size);
  const results = new Float64Array(size);
  const lastAt = new Float64Array(size).fill(-Infinity);
  const clicks = new Map<number, Map<string, number>>();
  let totalSearches = 0;
  for (const { rollup } of log.rollups(projectId, ...dayRange(range))) {
    for (const row of rollup.searches.values()) {
      if (range.domain !== undefined && row.domain !== range.domain) continue;
      const q = row.queryId;
      totalSearches += row.count;
      hits[q] += row.count;
      if (row.count > 0 && row.lastAt >= lastAt[q]) {
        lastAt[q] = row.lastAt;
        results[q] = row.results;
      }
      if (row.clicks.size === 0) continue;
      let sum = clicks.get(q);
      if (!sum) clicks.set(q, (sum = new Map()));
      for (const [path, n] of row.clicks) sum.set(path, (sum.get(path) ?? 0) + n);
    }
  }
  const all: SearchSummary[] = [];
  for (let q = 0; q < size; q++) {
    // A click whose search fell outside the range has no search to belong to.
    if (hits[q] === 0 || (range.noResults && results[q] > 0)) continue;
    let clicked = 0;
    let top: [string, number] | null = null;
    for (const entry of clicks.get(q) ?? []) {
      clicked += entry[1];
      if (!top || entry[1] > top[1] || (entry[1] === top[1] && entry[0] < top[0])) top = entry;
    }
    all.push({
      searchQuery: log.texts.textOf(q),
      hits: hits[q],
      ctr: Math.round((Math.min(clicked, hits[q]) / hits[q]) * 10_000) / 10_000,
      topClickedPage: top?.[0] ?? null,
      lastSearchedAt: new Date(lastAt[q]).toISOString(),
      results: results[q],
    });
  }
  all.sort((a, b) => b.hits - a.hits || (a.searchQuery < b.searchQuery ? -1 : a.searchQuery > b.searchQuery ? 1 : 0));
  return { searches: all.slice(page.offset, page.offset + page.limit), totalSearches, hasMore: all.length > page.offset + page.limit };
}

function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
