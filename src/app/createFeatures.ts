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
  const deployments = await createDeploymentsFeature(ctx);
  const exports = await createExportsFeature(ctx, { deployments });
  // Scheduled re-exports live in the deployment module but build bundles through the export module.
  deployments.setReexporter((domain) => exports.exportAndBundle(domain));
  // Every /v1/analytics endpoint, feedback or reading analytics, draws on one budget per project.
  const analyticsLimiter = new RateLimiter('analytics', ctx.config.analytics.requestsPerHour, 60 * 60_000, ctx.clock);
  const feedback = await createFeedbackFeature(ctx, { activeSite: deployments.activeSite, analyticsLimiter });
  const analytics = await createAnalyticsFeature(ctx, { activeSite: deployments.activeSite, limiter: analyticsLimiter });
  if (analytics.onPageServed) deployments.setPageServedHook(analytics.onPageServed, analytics.searchEventsPath);
  const agent = await createAgentFeature(ctx);
  const dashboard = await createDashboardFeature();
  return { deployments, exports, analytics, all: [deployments, exports, feedback, analytics, agent, dashboard, createSigningKeysFeature(ctx)] };
}
