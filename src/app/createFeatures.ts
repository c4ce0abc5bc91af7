import type { Feature, FeatureContext } from '../features/Feature.js';
import { createAgentFeature } from '../features/agent/agentFeature.js';
import { createDeploymentsFeature, type DeploymentsFeature } from '../features/deployments/deploymentsFeature.js';
import { createExportsFeature, type ExportsFeature } from '../features/exports/exportsFeature.js';
import { createFeedbackFeature } from '../features/feedback/feedbackFeature.js';
import { createSigningKeysFeature } from '../features/signingKeys/signingKeysFeature.js';
import { createAnalyticsFeature, type AnalyticsFeature } from '../features/analytics/analyticsFeature.js';
import { RateLimiter } from '../http/RateLimiter.js';
import { createDashboardFeature } from '../features/dashboard/dashboardFeature.js';

/** Every feature module, wired to the ones it depends on. */
export interface Features {
  deployments: DeploymentsFeature;
  exports: ExportsFeature;
  analytics: AnalyticsFeature;
  all: Feature[];
}

/** Builds the feature modules in dependency order. */
export async function createFeatures(ctx: FeatureContext): Promise<Features> {
  // Deployments serve the sites; re-exports (export module) and page-view counting (analytics)
  // are built after it and reached through these forwarders, called only once requests and
  // scheduled runs start, when every module exists.
  let exportsFeature: ExportsFeature | null = null;
  let analytics: AnalyticsFeature | null = null;
  const deployments = await createDeploymentsFeature(ctx, {
    reexport: (domain) => {
      if (!exportsFeature) throw new Error('re-export ran before the export module was built');
      return exportsFeature.exportAndBundle(domain);
    },
    onPageServed: (page) => analytics?.onPageServed?.(page),
    // Tells the site's search box to report to /_enclave/search-events (see theme.js); else it reports nothing.
    siteMark: ctx.config.analytics.collect ? 'search-events' : undefined,
  });
  const exports = await createExportsFeature(ctx, { activeSite: deployments.activeSite });
  exportsFeature = exports;
  // Every /v1/analytics endpoint, feedback or reading analytics, draws on one budget per project.
  const analyticsLimiter = new RateLimiter('analytics', ctx.config.analytics.requestsPerHour, 60 * 60_000, ctx.clock);
  const feedback = await createFeedbackFeature(ctx, { activeSite: deployments.activeSite, analyticsLimiter });
  analytics = await createAnalyticsFeature(ctx, { activeSite: deployments.activeSite, limiter: analyticsLimiter });
  const agent = await createAgentFeature(ctx);
  const dashboard = await createDashboardFeature();
  return {
    deployments,
    exports,
    analytics,
    all: [deployments, exports, feedback, analytics, agent, dashboard, createSigningKeysFeature(ctx)],
  };
}
