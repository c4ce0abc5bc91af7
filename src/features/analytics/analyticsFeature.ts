import type { ActiveSite } from '../deployments/ActiveSite.js';
import type { PageServedHook } from '../deployments/site/PageServedHook.js';
import { IngestGuard } from '../../http/IngestGuard.js';
import { RateLimiter } from '../../http/RateLimiter.js';
import { DAY_MS } from '../../platform/Clock.js';
import type { Feature, FeatureContext } from '../Feature.js';
import { AnalyticsLog } from './AnalyticsLog.js';
import { createAnalyticsReports } from './AnalyticsReports.js';
import { recordPageView } from './recordPageView.js';
import { analyticsReportRoutes } from './routes/analyticsReportRoutes.js';
import { SEARCH_EVENTS_PATH, searchEventRoutes } from './routes/searchEventRoutes.js';
import { ViewBudget } from './ViewBudget.js';
import { VisitorSalt } from './VisitorSalt.js';

/** The analytics module plus what tests and the benchmark reach into. */
export interface AnalyticsFeature extends Feature {
  log: AnalyticsLog;
  salt: VisitorSalt;
  /** Counts a served page (the site handler calls it; null when `analytics.collect` is false). */
  onPageServed: PageServedHook | null;
  /** Where the site's search box beacons to (routes/searchEventRoutes). */
  searchEventsPath: string;
  /** Retention and day closing once with `now` (the cron task's body). */
  applyRetention(now: Date): Promise<string[]>;
}

/**
 * Reading analytics: page views and visitors counted where the site is served, searches
 * beaconed by the site's search box, and the reports under /v1/analytics on the budget the
 * feedback endpoints use (`limiter`, shared).
 */
// size: wires the feature's parts in order (stores, queue, routes, tasks); a straight list with no branching
export async function createAnalyticsFeature(
  ctx: FeatureContext,
  deps: { activeSite: ActiveSite; limiter: RateLimiter },
): Promise<AnalyticsFeature> {
  const { config, logger, clock } = ctx;
  const settings = config.analytics;
  const today = () => Math.floor(clock.now().getTime() / DAY_MS);
  const log = await AnalyticsLog.open({ dataDir: config.dataDir, logger, today: today() });
  // Rollups only speed up the next start: a full or read-only volume must not stop this one.
  await log.closeDaysBefore(today()).catch((err) => logger.warn({ err }, 'could not write analytics rollups'));
  logger.info({ ...log.stats }, 'analytics loaded');
  const salt = await VisitorSalt.open(`${config.dataDir}/analytics`, clock, logger);
  const guard = new IngestGuard({
    name: 'analytics',
    perMinute: settings.eventsPerMinute,
    minFreeBytes: config.limits.minFreeBytes,
    dataDir: config.dataDir,
    clock,
  });
  await guard.measure();
  const budget = new ViewBudget({
    repeatViewMs: settings.repeatViewSeconds * 1000,
    viewsPerAddressPerMinute: settings.viewsPerAddressPerMinute,
    visitorsPerAddressPerHour: settings.visitorsPerAddressPerHour,
    clock,
  });
  const reports = createAnalyticsReports({ log, activeSite: deps.activeSite, guard, clock, collect: settings.collect });
  const projects = new Map<string, string | null>();
  // Looked up once per domain: the sites list changes rarely, and this runs for every page served.
  const projectOf = (domain: string) => {
    if (!projects.has(domain)) projects.set(domain, ctx.sites.find(domain)?.projectId ?? null);
    if (projects.size > 1000) projects.clear();
    return projects.get(domain) ?? null;
  };
  const applyRetention = async (now: Date) => {
    const day = Math.floor(now.getTime() / DAY_MS);
    await log.closeDaysBefore(day);
    return settings.retentionDays > 0 ? log.dropDaysBefore(day - settings.retentionDays) : [];
  };
  return {
    name: 'analytics',
    routes: [
      ...analyticsReportRoutes({ reports, limiter: deps.limiter }),
      ...searchEventRoutes({
        reports,
        limiter: new RateLimiter('search-events', settings.searchesPerAddressPerMinute, 60_000, clock),
        bodyLimitBytes: config.limits.feedbackBodyBytes,
      }),
    ],
    log,
    salt,
    searchEventsPath: SEARCH_EVENTS_PATH,
    onPageServed: settings.collect ? (page) => recordPageView({ log, salt, guard, budget, clock, projectOf }, page) : null,
    applyRetention,
    tasks: [{ name: 'analytics-retention', cron: settings.retentionCron, run: (now) => applyRetention(now).then(() => undefined) }],
    async start() {
      log.startFlushing(settings.flushMs, today);
    },
    async stop() {
      // Days that ended are written as rollups now, so the next start reads counts, not events.
      await log.closeDaysBefore(today()).catch((err) => logger.warn({ err }, 'could not write analytics rollups'));
      // Today's counts are checkpointed too, so the next start scans none of its events.
      await log.close(today());
    },
  };
}
