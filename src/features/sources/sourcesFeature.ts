import type { Task } from '../../platform/Task.js';
import type { Feature, FeatureContext } from '../Feature.js';
import type { BuiltBundle, DeployBundle } from '../exports/reexportSite.js';
import { GitSourceSync } from './GitSourceSync.js';
import { gitWebhookRoutes } from './routes/gitWebhookRoutes.js';
import { projectUpdateRoutes } from './routes/projectUpdateRoutes.js';
import { SourceStateRepository } from './SourceStateRepository.js';

/** The git-sources feature, with its sync for tests and the other features app/ wires to it. */
export interface SourcesFeature extends Feature {
  sync: GitSourceSync;
  state: SourceStateRepository;
}

/** What the sources feature needs from the rest of the appliance, passed in by app/. */
export interface SourcesDeps {
  /** The export feature's export-and-wait, at a given git tree-ish. */
  exportAndBundle(domain: string, options: { ref: string }): Promise<BuiltBundle>;
  /** The deployment feature's port: a built bundle goes live. */
  deploy: DeployBundle;
}

/**
 * Builds the git-sources module: the appliance's clones (fetched with the hardened git of
 * platform/git), push webhooks, poll tasks, and the hosted update API. At start every git
 * source is fetched once, so a push missed while the appliance was down goes live.
 */
export async function createSourcesFeature(ctx: FeatureContext, deps: SourcesDeps): Promise<SourcesFeature> {
  const logger = ctx.logger.child({ module: 'sources' });
  const state = await SourceStateRepository.open(ctx.config.dataDir);
  const sync = new GitSourceSync({
    sites: ctx.sites,
    state,
    exportAndBundle: deps.exportAndBundle,
    deploy: deps.deploy,
    clock: ctx.clock,
    logger,
    fetchTimeoutMs: ctx.config.sources.fetchTimeoutSeconds * 1000,
  });
  const tasks: Task[] = sync
    .gitSites()
    .flatMap((site) =>
      site.git?.pollCron ? [{ name: `git-poll ${site.domain}`, cron: site.git.pollCron, run: () => sync.poll(site.domain) }] : [],
    );
  return {
    name: 'sources',
    sync,
    state,
    tasks,
    routes: [
      ...gitWebhookRoutes({ sites: ctx.sites, sync }),
      ...projectUpdateRoutes({
        sites: ctx.sites,
        sync,
        findUpdate: (projectId, id) => state.findUpdate(projectId, id),
        listUpdates: (projectId, limit) => state.updatesOfProject(projectId, limit),
      }),
    ],
    readiness() {
      const failing = state.sites().filter((s) => s.lastError);
      if (failing.length === 0) return { status: 'ok', sources: sync.gitSites().length };
      return { status: 'degraded', detail: failing.map((s) => `${s.domain}: ${s.lastError}`).join('; ') };
    },
    async start() {
      const interrupted = await state.failInterrupted(ctx.clock.now().toISOString());
      if (interrupted) logger.warn({ interrupted }, 'updates cut short by a restart were marked failed');
      for (const site of sync.gitSites()) void sync.poll(site.domain);
    },
    async stop() {
      await sync.stop();
      await state.flush();
    },
  };
}
