import type { ActiveSite } from './ActiveSite.js';
import type { AppModule, ModuleContext } from './AppModule.js';

/** Builds the feedback module (placeholder until the feedback work lands). */
export async function createFeedbackModule(ctx: ModuleContext, deps: { activeSite: ActiveSite }): Promise<AppModule> {
  void ctx;
  void deps;
  return { name: 'feedback', routes: [] };
}
