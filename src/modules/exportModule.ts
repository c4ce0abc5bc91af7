import type { AppModule, ModuleContext } from './AppModule.js';
import type { DeploymentModule } from './deploymentModule.js';

/** The static-export feature: jobs, bundles, signed links. */
export interface ExportModule extends AppModule {
  /** Exports a site and packs its bundle (used by first start and scheduled re-exports). */
  exportAndBundle(domain: string, options?: { version?: string }): Promise<{ jobId: string; zipPath: string; version: string; sha256: string }>;
}

/** Builds the export module (placeholder until the export work lands). */
export async function createExportModule(ctx: ModuleContext, deps: { deployments: DeploymentModule }): Promise<ExportModule> {
  void ctx;
  void deps;
  return {
    name: 'exports',
    routes: [],
    async exportAndBundle() {
      throw new Error('static export is not available yet');
    },
  };
}
