import { FeedbackCursor } from './FeedbackCursor.js';
import { dropExpiredFeedback } from './dropExpiredFeedback.js';
import { RateLimiter } from '../../http/RateLimiter.js';
import { analyticsRoutes } from './routes/analyticsRoutes.js';
import { feedbackRoutes } from './routes/feedbackRoutes.js';
import { Scheduler } from '../../platform/Scheduler.js';
import { FeedbackLog } from './log/FeedbackLog.js';
import type { ActiveSite } from '../deployments/ActiveSite.js';
import type { Feature, FeatureContext } from '../Feature.js';

/** The feedback module plus its log (tests and the benchmark look inside). */
export interface FeedbackFeature extends Feature {
  log: FeedbackLog;
  /** Runs retention once with `now` (the cron task's body). */
  applyRetention(now: Date): Promise<string[]>;
}

/**
 * Reader feedback: the public collection endpoint for the live site's widget, the analytics
 * API, and the feedback log they share. The log's index is loaded here, before the server
 * listens, so the first query already sees everything on disk.
 */
export async function createFeedbackFeature(ctx: FeatureContext, deps: { activeSite: ActiveSite }): Promise<FeedbackFeature> {
  const { config, logger, clock } = ctx;
  const log = await FeedbackLog.open({ dataDir: config.dataDir, groupCommitMs: config.feedback.groupCommitMs, logger });
  logger.info({ entries: log.stats.entries, segments: log.stats.segments, loadMs: log.stats.loadMs }, 'feedback log loaded');
  const scheduler = new Scheduler(logger);
  const applyRetention = (now: Date) => dropExpiredFeedback({ log, logger, retentionDays: config.feedback.retentionDays }, now);
  const routes = [
    ...feedbackRoutes({
      log,
      activeSite: deps.activeSite,
      clock,
      limiter: new RateLimiter('feedback', config.feedback.perClientPerMinute, 60_000, clock),
      bodyLimitBytes: config.limits.feedbackBodyBytes,
      allowedOrigins: config.feedback.allowedOrigins,
    }),
    ...analyticsRoutes({
      log,
      cursors: new FeedbackCursor(ctx.keyring),
      clock,
      limiter: new RateLimiter('analytics', config.analytics.requestsPerHour, 60 * 60_000, clock),
    }),
  ];
  return {
    name: 'feedback',
    routes,
    log,
    applyRetention,
    async start() {
      if (config.feedback.retentionDays > 0) scheduler.add('feedback-retention', config.feedback.retentionCron, () => applyRetention(clock.now()).then(() => undefined));
    },
    async stop() {
      await scheduler.stop();
      await log.close();
    },
  };
}
