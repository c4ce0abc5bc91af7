import type { ActiveSite } from '../deployments/ActiveSite.js';
import type { IngestGuard } from '../../http/IngestGuard.js';
import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import type { AnalyticsLog } from './AnalyticsLog.js';
import {
  reportSearches,
  reportViews,
  reportVisitors,
  type AnalyticsRange,
  type CountsReport,
  type PageRequest,
  type SearchSummary,
} from './AnalyticsOperations.js';

/** A search-box beacon after validation. */
export type SearchBeacon = { type: 'search'; query: string; results: number } | { type: 'click'; query: string; path: string };

/** What the analytics routes may do: the operations, never the log itself. */
export interface AnalyticsReports {
  views(projectId: string, range: AnalyticsRange & { version?: string }, page: PageRequest): CountsReport;
  visitors(projectId: string, range: AnalyticsRange, page: PageRequest): CountsReport;
  searches(
    projectId: string,
    range: AnalyticsRange & { noResults?: boolean },
    page: { limit: number; offset: number },
  ): { searches: SearchSummary[]; totalSearches: number; hasMore: boolean };
  /**
   * Stores a search or click made on the site `host` serves, for that site's project (refused
   * by the flood guard with 429/507).
   */
  recordSearchEvent(event: SearchBeacon, host: string): Promise<void>;
}

/** Builds the operations over the log; `collect: false` makes recording a no-op. */
export function createAnalyticsReports(deps: {
  log: AnalyticsLog;
  activeSite: ActiveSite;
  guard: IngestGuard;
  clock: Clock;
  collect: boolean;
}): AnalyticsReports {
  return {
    views: (projectId, range, page) => reportViews(deps.log, projectId, range, page),
    visitors: (projectId, range, page) => reportVisitors(deps.log, projectId, range, page),
    searches: (projectId, range, page) => reportSearches(deps.log, projectId, range, page),
    async recordSearchEvent(event, host) {
      if (!deps.collect) return;
      // The site the beacon's page came from (the request's host), never the default one.
      const site = deps.activeSite.current(host);
      if (!site?.projectId) return; // nothing live to have been searched
      // Only pages of that site: a click can't plant arbitrary text in the reports.
      if (event.type === 'click' && !site.pagePaths.has(event.path))
        throw AppError.invalid([{ message: 'body.path: not a page of the live site' }]);
      await deps.guard.admit();
      const at = deps.clock.now().getTime();
      // Queries are grouped as readers would read them: case and spacing don't make a new query.
      const query = event.query.replace(/\s+/g, ' ').toLowerCase();
      deps.log.record(
        site.projectId,
        event.type === 'search'
          ? { kind: 'search', at, domain: site.domain, query, results: event.results }
          : { kind: 'click', at, domain: site.domain, query, path: event.path },
      );
    },
  };
}
