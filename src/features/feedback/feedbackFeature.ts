import type { ReaderMayOpen } from '../deployments/site/readerMayOpenPage.js';
import { FeedbackCursor } from './FeedbackCursor.js';
import { dropExpiredFeedback } from './dropExpiredFeedback.js';
import { RateLimiter } from '../../http/RateLimiter.js';
import { IngestGuard } from '../../http/IngestGuard.js';
import { createFeedbackOperations } from './FeedbackOperations.js';
import { analyticsRoutes } from './routes/analyticsRoutes.js';
import { feedbackRoutes } from './routes/feedbackRoutes.js';
import { FeedbackLog } from './log/FeedbackLog.js';
import { allowFeedbackOrigins } from './allowFeedbackOrigins.js';
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
export async function createFeedbackFeature(
  ctx: FeatureContext,
  deps: { activeSite: ActiveSite; analyticsLimiter: RateLimiter; readerMayOpen?: ReaderMayOpen },
): Promise<FeedbackFeature> {
  const { config, logger, clock } = ctx;
  const log = await FeedbackLog.open({ dataDir: config.dataDir, groupCommitMs: config.feedback.groupCommitMs, logger });
  logger.info({ entries: log.stats.entries, segments: log.stats.segments, loadMs: log.stats.loadMs }, 'feedback log loaded');
  const applyRetention = (now: Date) => dropExpiredFeedback({ log, logger, retentionDays: config.feedback.retentionDays }, now);
  const cursors = new FeedbackCursor(ctx.keyring);
  const ops = createFeedbackOperations({
    log,
    activeSite: deps.activeSite,
    clock,
    cursors,
    guard: new IngestGuard({
      name: 'feedback',
      perMinute: config.feedback.globalPerMinute,
      minFreeBytes: config.limits.minFreeBytes,
      dataDir: config.dataDir,
      clock,
    }),
    perPage: new RateLimiter('feedback-page', config.feedback.perPagePerMinute, 60_000, clock),
  });
  const routes = [
    ...feedbackRoutes({
      ops,
      activeSite: deps.activeSite,
      readerMayOpen: deps.readerMayOpen,
      limiter: new RateLimiter('feedback', config.feedback.perClientPerMinute, 60_000, clock),
      bodyLimitBytes: config.limits.feedbackBodyBytes,
      allowedOrigins: config.feedback.allowedOrigins,
    }),
    ...analyticsRoutes({ ops, cursors, limiter: deps.analyticsLimiter }),
  ];
  return {
    name: 'feedback',
    routes,
    log,
    applyRetention,
    // Bundles hosted on another origin post feedback here (feedback.allowedOrigins).
    middleware: [allowFeedbackOrigins(config.feedback.allowedOrigins)],
    tasks:
      config.feedback.retentionDays > 0
        ? [{ name: 'feedback-retention', cron: config.feedback.retentionCron, run: (now) => applyRetention(now).then(() => undefined) }]
        : [],
    async stop() {
      await log.close();
    },
  };
}
