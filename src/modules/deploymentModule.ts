import type { ActiveSite } from './ActiveSite.js';
import type { AppModule, ModuleContext } from './AppModule.js';

/** The deployment feature: fetch/verify/activate bundles and serve the live site. */
export interface DeploymentModule extends AppModule {
  activeSite: ActiveSite;
  /** Verifies and activates a bundle zip already on local disk; resolves with its version. */
  activateBundleFile(zipPath: string, options: { version?: string | null; source: string }): Promise<{ version: string }>;
}

/** Builds the deployment module (placeholder until the deployment work lands). */
export async function createDeploymentModule(ctx: ModuleContext): Promise<DeploymentModule> {
  void ctx;
  return {
    name: 'deployments',
    routes: [],
    activeSite: { current: () => null },
    async activateBundleFile() {
      throw new Error('deployments are not available yet');
    },
    readiness: () => ({ status: 'unavailable', detail: 'no site version is active' }),
  };
}
