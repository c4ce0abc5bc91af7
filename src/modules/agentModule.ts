import type { AppModule, ModuleContext } from './AppModule.js';

/** Builds the agent-jobs module (placeholder until the agent work lands). */
export async function createAgentModule(ctx: ModuleContext): Promise<AppModule> {
  void ctx;
  return { name: 'agent', routes: [] };
}
