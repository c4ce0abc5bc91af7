import type { Task } from '../../platform/Task.js';
import type { Feature, FeatureContext } from '../Feature.js';
import type { BuiltBundle, DeployBundle } from '../exports/reexportSite.js';
import { GitSourceSync } from './GitSourceSync.js';
import { gitWebhookRoutes } from './routes/gitWebhookRoutes.js';
import { projectUpdateRoutes } from './routes/projectUpdateRoutes.js';
import { SourceStateRepository } from './SourceStateRepository.js';
import type { PreviewHosting } from '../deployments/PreviewVersions.js';
import type { SiteRequest, SiteRequestHandler } from '../../http/SiteRequestHandler.js';
import { createGitPreviews } from './previews/createGitPreviews.js';
import type { GitPreviews } from './previews/GitPreviews.js';
import { previewRoutes } from './previews/routes/previewRoutes.js';
import type { AgentPreviews } from '../agent/AgentPreviews.js';
import { createSshConnections } from './ssh/createSshConnections.js';
import type { SshConnections } from './ssh/SshConnections.js';

/** The git-sources feature, with its sync for tests and the other features app/ wires to it. */
export interface SourcesFeature extends Feature {
  sync: GitSourceSync;
  state: SourceStateRepository;
  /** Shared ssh connections of ssh sources (null: `sources.sshConnectionIdleSeconds` is 0). */
  ssh: SshConnections | null;
  /** Previews of branches (requests, listing, expiry), for tests and the agent feature's pull requests. */
  previews: GitPreviews;
  /** Previews of agent jobs' pushed branches (app/ hands it to the agent feature). */
  agentPreviews: AgentPreviews;
  /** The site handler's preview hook (app/ hands it to deployments): false for a live-site request. */
  servePreview(request: SiteRequest): ReturnType<SiteRequestHandler> | false;
}

/** What the sources feature needs from the rest of the appliance, passed in by app/. */
export interface SourcesDeps {
  /** The export feature's export-and-wait, at a given git tree-ish. */
  exportAndBundle(domain: string, options: { ref: string }): Promise<BuiltBundle>;
  /** The deployment feature's port: a built bundle goes live. */
  deploy: DeployBundle;
  /** The deployment feature's preview versions, apart from the live ones. */
  previewHosting: PreviewHosting;
}

/**
 * Builds the git-sources module: the appliance's clones (fetched with the hardened git of
 * platform/git), push webhooks, poll tasks, and the hosted update API. At start every git
 * source is fetched once, so a push missed while the appliance was down goes live.
 */
export async function createSourcesFeature(ctx: FeatureContext, deps: SourcesDeps): Promise<SourcesFeature> {
  const logger = ctx.logger.child({ module: 'sources' });
  const state = await SourceStateRepository.open(ctx.config.dataDir);
  const ssh = await createSshConnections(ctx.config, ctx.clock, logger);
  const sync = new GitSourceSync({
    sites: ctx.sites,
    state,
    exportAndBundle: deps.exportAndBundle,
    deploy: deps.deploy,
    clock: ctx.clock,
    logger,
    fetchTimeoutMs: ctx.config.sources.fetchTimeoutSeconds * 1000,
    ssh,
  });
  const { previews, servePreview, agentPreviews, expiry, records } = await createGitPreviews(ctx, {
    sync,
    state,
    logger,
    exportAndBundle: deps.exportAndBundle,
    hosting: deps.previewHosting,
  });
  const tasks: Task[] = [...pollTasks(sync), expiry, ...(ssh ? [ssh.idleTask()] : [])];
  return {
    name: 'sources',
    sync,
    state,
    ssh,
    previews,
    agentPreviews,
    servePreview,
    tasks,
    routes: [
      ...previewRoutes({ sites: ctx.sites, previews }),
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
      await previews.restore();
      for (const site of sync.gitSites()) void sync.poll(site.domain);
    },
    async stop() {
      await sync.stop();
      await ssh?.stop();
      await state.flush();
      await records.flush();
    },
  };
}

/** A poll task for every site with a `pollCron`. */
function pollTasks(sync: GitSourceSync): Task[] {
  return sync.gitSites().flatMap((site) => {
    const cron = site.git?.pollCron;
    return cron ? [{ name: `git-poll ${site.domain}`, cron, run: () => sync.poll(site.domain) }] : [];
  });
}
