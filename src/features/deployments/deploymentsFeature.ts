import type { Logger } from 'pino';
import { openDeploymentStore } from './deploymentStore.js';
import { reexportSite, type Reexporter, type ReexportEntry, type ReexportOutcome } from './reexportSite.js';
import { SiteDeployer } from './SiteDeployer.js';
import { deploymentRoutes } from './routes/deploymentRoutes.js';
import { createSiteHandler, type SiteHandlerHooks } from './site/createSiteHandler.js';
import type { PageServedHook } from './site/PageServedHook.js';
import { Scheduler } from '../../platform/Scheduler.js';
import type { ActiveSite } from './ActiveSite.js';
import type { Feature, FeatureContext } from '../Feature.js';

/** The deployment feature: fetch/verify/activate bundles and serve the live site. */
export interface DeploymentsFeature extends Feature {
  activeSite: ActiveSite;
  /** Verifies and activates a bundle zip already on local disk; resolves with its version. */
  activateBundleFile(zipPath: string, options: { version?: string | null; source: string }): Promise<{ version: string }>;
  /** The deployment operations (API, CLI and tests use them). */
  deployer: SiteDeployer;
  /** Lets scheduled re-exports call the export module (created after this one). */
  setReexporter(reexporter: Reexporter): void;
  /** Lets the analytics module (created after this one) count pages as they are served, and name its search-event path. */
  setPageServedHook(hook: PageServedHook, searchEventsPath?: string): void;
  /** One scheduled re-export run (the cron task's body), callable directly by tests. */
  runReexport(entry: ReexportEntry, now: Date): Promise<ReexportOutcome>;
}

/**
 * Builds the deployment module. The last active version is restored from disk here, before the
 * server listens, so a restart serves at once; `start()` then fetches the configured bundle in
 * the background (the old version keeps serving meanwhile) and schedules re-exports.
 */
export async function createDeploymentsFeature(ctx: FeatureContext): Promise<DeploymentsFeature> {
  const { config, logger } = ctx;
  const store = await openDeploymentStore(config.dataDir);
  const deployer = await SiteDeployer.open({ config, logger, clock: ctx.clock, sites: ctx.control.sites, store });
  const scheduler = new Scheduler(logger);
  let reexporter: Reexporter | null = null;
  const siteHooks: SiteHandlerHooks = {};

  const runReexport = (entry: ReexportEntry, now: Date) => reexportSite(entry, { sites: ctx.control.sites, store, deployer, reexporter, logger }, now);

  return {
    name: 'deployments',
    routes: deploymentRoutes(deployer),
    siteHandler: createSiteHandler(deployer.live, siteHooks),
    activeSite: deployer.live,
    deployer,
    async activateBundleFile(zipPath, options) {
      const started = await deployer.beginLocal(zipPath, options.source, { origin: 'export', pin: options.version ?? null });
      const record = await started.done;
      return { version: record.version ?? '' };
    },
    setReexporter(fn) {
      reexporter = fn;
    },
    setPageServedHook(hook, searchEventsPath) {
      siteHooks.onPageServed = hook;
      siteHooks.searchEventsPath = searchEventsPath;
    },
    runReexport,
    readiness: () => deployer.readiness(),
    async start() {
      const { enabled, bundleUrl, version } = config.staticExport;
      if (enabled) startConfiguredFetch(deployer, bundleUrl, version, logger);
      for (const entry of config.export.reexport) {
        scheduler.add(`reexport ${entry.domain}`, entry.cron, async () => {
          await runReexport(entry, ctx.clock.now());
        });
      }
    },
    async stop() {
      // A deployment still running is not waited for: its staging directory is deleted and its
      // record marked failed on the next start, and the live version is untouched either way.
      await scheduler.stop();
      await store.flush();
    },
  };
}

/** Fetches the configured bundle without holding up startup; a failure is recorded and logged by the deployer. */
function startConfiguredFetch(deployer: SiteDeployer, bundleUrl: string | null, pin: string | null, logger: Logger): void {
  if (!bundleUrl) {
    logger.warn('staticExport.enabled is true but staticExport.bundleUrl is not set; nothing to fetch');
    return;
  }
  void deployer
    .begin(bundleUrl, { origin: 'config', pin })
    .then((started) => started.done)
    .catch(() => {});
}
