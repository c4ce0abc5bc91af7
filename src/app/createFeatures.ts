import type { Feature, FeatureContext } from '../features/Feature.js';
import { createAgentFeature } from '../features/agent/agentFeature.js';
import { createControlFeature, type ControlFeature } from '../features/control/controlFeature.js';
import type { ControlStore } from '../features/control/ControlStore.js';
import { createDeploymentsFeature, type DeploymentsFeature } from '../features/deployments/deploymentsFeature.js';
import { createExportsFeature, type ExportsFeature } from '../features/exports/exportsFeature.js';
import { createFeedbackFeature } from '../features/feedback/feedbackFeature.js';
import { createSigningKeysFeature } from '../features/signingKeys/signingKeysFeature.js';
import { createAnalyticsFeature, type AnalyticsFeature } from '../features/analytics/analyticsFeature.js';
import { RateLimiter } from '../http/RateLimiter.js';
import { createDashboardFeature } from '../features/dashboard/dashboardFeature.js';
import { createSourcesFeature, type SourcesFeature } from '../features/sources/sourcesFeature.js';
import { type AutomationsFeature, createAutomationsFeature } from '../features/automations/automationsFeature.js';
import { createAssistantFeature, type AssistantFeature } from '../features/assistant/assistantFeature.js';
import { createDashboardAuthFeature } from '../features/dashboardAuth/dashboardAuthFeature.js';
import { OidcFlows } from '../platform/oidc/OidcFlows.js';
import { createReaderAuthFeature, type ReaderAuthFeature } from '../features/readerAuth/readerAuthFeature.js';

/** Every feature module, wired to the ones it depends on. */
export interface Features {
  control: ControlFeature;
  deployments: DeploymentsFeature;
  exports: ExportsFeature;
  analytics: AnalyticsFeature;
  sources: SourcesFeature;
  automations: AutomationsFeature;
  assistant: AssistantFeature;
  /** Control first: it stops last, after every feature that records key use or reads sites. */
  all: Feature[];
}

/**
 * Builds the feature modules in dependency order. Control comes first, on the store app/ opened
 * for the first-start bootstrap; the others see only its SiteDirectory.
 */
// size: the one place every feature is wired to the ports it needs, read top to bottom in build order
export async function createFeatures(base: Omit<FeatureContext, 'sites'>, store: ControlStore): Promise<Features> {
  const control = createControlFeature(base, store);
  const ctx: FeatureContext = { ...base, sites: control.sites };
  // Deployments serve the sites; page-view counting (analytics) is built after it and reached
  // through this forwarder, called only once requests are served, when every module exists.
  let analytics: AnalyticsFeature | null = null;
  // Reader sign-in needs deployments' ActiveSite (which site a host shows), deployments its gate.
  let readerAuth: ReaderAuthFeature | null = null;
  // Previews are sources' (built after deployments); the site handler asks them first.
  let sources: SourcesFeature | null = null;
  const deployments = await createDeploymentsFeature(ctx, {
    onPageServed: (page) => analytics?.onPageServed?.(page),
    readerGate: (domain, cookie) => readerAuth?.gate(domain, cookie) ?? null,
    // Tells the site's search box to report to /_enclave/search-events (see theme.js); else it reports nothing.
    siteMark: ctx.config.analytics.collect ? 'search-events' : undefined,
    // Not `?? false`: a preview answered at once returns undefined, and must not be answered again.
    sitePreview: (request) => (sources ? sources.servePreview(request) : false),
  });
  // One relying party for readers and the dashboard: their flows stay apart by owner.
  const oidc = new OidcFlows(ctx.clock);
  readerAuth = await createReaderAuthFeature(ctx, { activeSite: deployments.activeSite, oidc });
  const exports = await createExportsFeature(ctx, { activeSite: deployments.activeSite, deploy: (bundle) => deployments.deploy(bundle) });
  // Every /v1/analytics endpoint, feedback or reading analytics, draws on one budget per project.
  const analyticsLimiter = new RateLimiter('analytics', ctx.config.analytics.requestsPerHour, 60 * 60_000, ctx.clock);
  const feedback = await createFeedbackFeature(ctx, {
    activeSite: deployments.activeSite,
    analyticsLimiter,
    readerMayOpen: deployments.readerMayOpen,
  });
  analytics = await createAnalyticsFeature(ctx, { activeSite: deployments.activeSite, limiter: analyticsLimiter });
  const agent = await createAgentFeature(ctx, {
    // Sources are built later; a job only pushes once requests are served, when they exist.
    previews: {
      urlFor: (projectId, repository, branch) => sources?.agentPreviews.urlFor(projectId, repository, branch) ?? null,
      request: async (projectId, repository, branch, jobId) => sources?.agentPreviews.request(projectId, repository, branch, jobId),
    },
  });
  const dashboard = await createDashboardFeature();
  const dashboardAuth = createDashboardAuthFeature(ctx, { oidc, keys: control.sessionKeys });
  // Git sources go live through the same export job and deploy port as scheduled re-exports.
  sources = await createSourcesFeature(ctx, {
    exportAndBundle: (domain, options) => exports.exportAndBundle(domain, options),
    deploy: (bundle) => deployments.deploy(bundle),
    previewHosting: deployments.previews,
  });
  // Scheduled prompts: agent jobs told what the site's git source received since the last run.
  const automations = await createAutomationsFeature(ctx, {
    startAgentJob: (projectId, input) => agent.startJob(projectId, input),
    agentJobStatus: (projectId, id) => agent.jobStatus(projectId, id),
    commitsSince: (domain, since) => sources.sync.commitsSince(domain, since),
  });
  const assistant = await createAssistantFeature(ctx, {
    activeSite: deployments.activeSite,
    verifyAssistantKey: control.verifyAssistantKey,
    analyticsLimiter,
    // The same gate as the site handler's: the assistant shows no page the site would not.
    readerGate: readerAuth.gate,
  });
  return {
    control,
    deployments,
    exports,
    analytics,
    sources,
    automations,
    assistant,
    all: [
      control,
      deployments,
      readerAuth,
      exports,
      feedback,
      analytics,
      agent,
      dashboard,
      dashboardAuth,
      assistant,
      createSigningKeysFeature(ctx),
      sources,
      automations,
    ],
  };
}
