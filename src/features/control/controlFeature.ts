import type { Middleware } from 'koa';
import type { Feature, FeatureContext } from '../Feature.js';
import { authenticateAdmin } from './authenticateAdmin.js';
import type { ControlStore } from './ControlStore.js';
import { createControlOperations } from './createControlOperations.js';
import { createSiteDirectory } from './createSiteDirectory.js';
import { keyRoutes } from './routes/keyRoutes.js';
import { projectRoutes } from './routes/projectRoutes.js';
import { siteRoutes } from './routes/siteRoutes.js';
import type { SessionKeys } from './SessionKeys.js';
import type { SiteDirectory } from './SiteDirectory.js';
import { type AssistantKeyCheck, verifyAssistantKey } from './verifyAssistantKey.js';

/** The control plane as a feature: projects, admin keys and sites, and who may call the admin API. */
export interface ControlFeature extends Feature {
  /** Admin-key authentication for every admin route (createApp hands it to the router). */
  authenticate: Middleware;
  /** The narrow view of sites and projects the other features receive. */
  sites: SiteDirectory;
  /** Checks a key presented to an assistant endpoint (app/ hands it to the assistant feature). */
  verifyAssistantKey(presented: string | undefined): AssistantKeyCheck;
  /** Keys minted for dashboard sign-ins (app/ hands them to dashboardAuth as its SessionKeys). */
  sessionKeys: SessionKeys;
}

/**
 * Builds the control feature on a store app/ has already opened (first start needs the store
 * before any feature exists: the default project, the sample site). Stopping it writes the
 * store's pending changes, last of all features, since key use is recorded until the end.
 */
export function createControlFeature(ctx: Pick<FeatureContext, 'clock' | 'logger'>, store: ControlStore): ControlFeature {
  const control = createControlOperations(store, ctx.clock);
  return {
    name: 'control',
    routes: [...projectRoutes({ control }), ...keyRoutes({ control }), ...siteRoutes({ control })],
    authenticate: authenticateAdmin({ keys: store.keys, clock: ctx.clock, logger: ctx.logger }),
    sites: createSiteDirectory(store),
    verifyAssistantKey: verifyAssistantKey(store.keys, ctx.clock),
    sessionKeys: {
      async mint(input) {
        const projectId = input.projectId ?? store.projects.defaultProjectId() ?? '';
        const { key, record } = await control.createKey({ projectId, name: input.name, scope: input.scope, expiresAt: input.expiresAt });
        return { key, id: record.id, projectId };
      },
      nameOf: (projectId, id) => control.listKeys(projectId).find((k) => k.id === id)?.name,
      async revoke(projectId, id) {
        await control.revokeKey(projectId, id);
      },
    },
    async stop() {
      await store.document.flush();
    },
  };
}
