import type { AppModule, ModuleContext } from '../features/Feature.js';
import { createAgentModule } from '../features/agent/agentFeature.js';
import { createDeploymentModule, type DeploymentModule } from '../features/deployments/deploymentsFeature.js';
import { createExportModule, type ExportModule } from '../features/exports/exportsFeature.js';
import { createFeedbackModule } from '../features/feedback/feedbackFeature.js';

/** Every feature module, wired to the ones it depends on. */
export interface Modules {
  deployments: DeploymentModule;
  exports: ExportModule;
  all: AppModule[];
}

/** Builds the feature modules in dependency order. */
export async function createModules(ctx: ModuleContext): Promise<Modules> {
  const deployments = await createDeploymentModule(ctx);
  const exports = await createExportModule(ctx, { deployments });
  // Scheduled re-exports live in the deployment module but build bundles through the export module.
  deployments.setReexporter((domain) => exports.exportAndBundle(domain));
  const feedback = await createFeedbackModule(ctx, { activeSite: deployments.activeSite });
  const agent = await createAgentModule(ctx);
  return { deployments, exports, all: [deployments, exports, feedback, agent] };
}
