import type { Feature, FeatureContext } from '../features/Feature.js';
import { createAgentFeature } from '../features/agent/agentFeature.js';
import { createDeploymentsFeature, type DeploymentsFeature } from '../features/deployments/deploymentsFeature.js';
import { createExportsFeature, type ExportsFeature } from '../features/exports/exportsFeature.js';
import { createFeedbackFeature } from '../features/feedback/feedbackFeature.js';
import { createSigningKeysFeature } from '../features/signingKeys/signingKeysFeature.js';

/** Every feature module, wired to the ones it depends on. */
export interface Features {
  deployments: DeploymentsFeature;
  exports: ExportsFeature;
  all: Feature[];
}

/** Builds the feature modules in dependency order. */
export async function createFeatures(ctx: FeatureContext): Promise<Features> {
  const deployments = await createDeploymentsFeature(ctx);
  const exports = await createExportsFeature(ctx, { deployments });
  // Scheduled re-exports live in the deployment module but build bundles through the export module.
  deployments.setReexporter((domain) => exports.exportAndBundle(domain));
  const feedback = await createFeedbackFeature(ctx, { activeSite: deployments.activeSite });
  const agent = await createAgentFeature(ctx);
  return { deployments, exports, all: [deployments, exports, feedback, agent, createSigningKeysFeature(ctx)] };
}
