import type { Logger } from 'pino';
import { reexportSite, type Reexporter, type ReexportEntry, type ReexportOutcome } from './reexportSite.js';
import type { SiteDeployer } from './SiteDeployer.js';
import { SiteDeployments } from './SiteDeployments.js';
import { deploymentRoutes } from './routes/deploymentRoutes.js';
import { createSiteHandler } from './site/createSiteHandler.js';
import type { PageServedHook } from './site/PageServedHook.js';
import { Scheduler } from '../../platform/Scheduler.js';
import type { ActiveSite } from './ActiveSite.js';
import type { Feature, FeatureContext } from '../Feature.js';

/** The deployment feature: fetch/verify/activate bundles and serve the live sites by Host. */
export interface DeploymentsFeature extends Feature {
  activeSite: ActiveSite;
  /** Verifies and activates a bundle zip already on local disk, for `domain`'s site (default: the default site); resolves with its version. */
  activateBundleFile(
    zipPath: string,
    options: { version?: string | null; source: string; domain?: string | null },
  ): Promise<{ version: string }>;
  /** Every site's deployments (API, CLI and tests use them). */
  sites: SiteDeployments;
  /** One scheduled re-export run (the cron task's body), callable directly by tests. */
  runReexport(entry: ReexportEntry, now: Date): Promise<ReexportOutcome>;
}

/** What the deployment feature needs from the rest of the appliance, passed in by app/. */
export interface DeploymentsDeps {
  /** Builds a site's bundle (the export module's exportAndBundle), for scheduled re-exports. */
  reexport: Reexporter;
  /** Told of every file a GET got from a live site (page-view counting hooks in here). */
  onPageServed?: PageServedHook;
  /** The X-Enclave-Site value sent with every file of the live sites (see SiteHandlerOptions). */
  siteMark?: string;
}

/**
 * Builds the deployment module. The last active version of every site is restored from disk
 * here, before the server listens, so a restart serves at once; `start()` then fetches the
 * configured bundles in the background (the old versions keep serving meanwhile) and schedules
 * re-exports.
 */
export async function createDeploymentsFeature(ctx: FeatureContext, deps: DeploymentsDeps): Promise<DeploymentsFeature> {
  const { config, logger } = ctx;
  const sites = await SiteDeployments.open({ config, logger, clock: ctx.clock, sites: ctx.control.sites });
  const scheduler = new Scheduler(logger);

  const runReexport = (entry: ReexportEntry, now: Date) =>
    reexportSite(entry, { sites: ctx.control.sites, deployments: sites, reexporter: deps.reexport, logger }, now);

  return {
    name: 'deployments',
    routes: deploymentRoutes(sites),
    siteHandler: createSiteHandler(sites, {
      logger,
      onPageServed: deps.onPageServed,
      siteMark: deps.siteMark,
      tryItOrigins: config.staticExport.tryItOrigins.map((o) => o.toLowerCase()),
    }),
    activeSite: sites,
    sites,
    async activateBundleFile(zipPath, options) {
      const deployer = await sites.ensure(options.domain ?? null);
      const started = await deployer.beginLocal(zipPath, options.source, { origin: 'export', pin: options.version ?? null });
      const record = await started.done;
      return { version: record.version ?? '' };
    },
    runReexport,
    readiness: () => sites.readiness(),
    async start() {
      const { enabled, bundleUrl, version } = config.staticExport;
      if (enabled) startConfiguredFetch(sites.defaultSite, bundleUrl, version, logger);
      for (const site of config.sites) {
        if (!site.staticExport?.enabled) continue;
        startConfiguredFetch(
          await sites.ensure(site.domain),
          site.staticExport.bundleUrl ?? null,
          site.staticExport.version ?? null,
          logger,
        );
      }
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
      await sites.flush();
    },
  };
}

/** Fetches a configured bundle without holding up startup; a failure is recorded and logged by the deployer. */
function startConfiguredFetch(deployer: SiteDeployer, bundleUrl: string | null, pin: string | null, logger: Logger): void {
  if (!bundleUrl) {
    logger.warn({ site: deployer.site }, 'staticExport.enabled is true but staticExport.bundleUrl is not set; nothing to fetch');
    return;
  }
  void deployer
    .begin(bundleUrl, { origin: 'config', pin })
    .then((started) => started.done)
    .catch(() => {});
}
