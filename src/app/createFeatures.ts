import type { Feature, FeatureContext } from '../features/Feature.js';
import { createAgentFeature } from '../features/agent/agentFeature.js';
import { createDeploymentsFeature, type DeploymentsFeature } from '../features/deployments/deploymentsFeature.js';
import { createExportsFeature, type ExportsFeature } from '../features/exports/exportsFeature.js';
import { createFeedbackFeature } from '../features/feedback/feedbackFeature.js';

/** Every feature module, wired to the ones it depends on. */
export interface Features {
  deployments: DeploymentsFeature;
  exports: ExportsFeature;
  all: Feature[];
}

/** Builds the feature modules in dependency order. */
export async function createFeatures(ctx: FeatureContext): Promise<Features> {
  // Scheduled re-exports live in the deployment module but build bundles through the export
  // module, which is built after it (it asks which versions are live): the function is only
  // called by a re-export run, after start(), when both exist.
  let exportsFeature: ExportsFeature | null = null;
  const deployments = await createDeploymentsFeature(ctx, {
    reexport: (domain) => {
      if (!exportsFeature) throw new Error('re-export ran before the export module was built');
      return exportsFeature.exportAndBundle(domain);
    },
  });
  const exports = await createExportsFeature(ctx, { activeSite: deployments.activeSite });
  exportsFeature = exports;
  const feedback = await createFeedbackFeature(ctx, { activeSite: deployments.activeSite });
  const agent = await createAgentFeature(ctx);
  return { deployments, exports, all: [deployments, exports, feedback, agent] };
}
