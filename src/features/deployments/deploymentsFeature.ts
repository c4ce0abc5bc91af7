import type { Logger } from 'pino';
import type { SiteDeployer } from './SiteDeployer.js';
import type { DeployRequest } from './DeployRequest.js';
import { SiteDeployments } from './SiteDeployments.js';
import { deploymentRoutes } from './routes/deploymentRoutes.js';
import { createSiteHandler } from './site/createSiteHandler.js';
import type { PageServedHook } from './site/PageServedHook.js';
import type { ReaderGate } from './site/ReaderGate.js';
import { type ReaderMayOpen, readerMayOpenPage } from './site/readerMayOpenPage.js';
import type { ActiveSite } from './ActiveSite.js';
import { type PreviewHosting, PreviewVersions } from './PreviewVersions.js';
import type { SiteRequest, SiteRequestHandler } from '../../http/SiteRequestHandler.js';
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
  /**
   * Activates a bundle this appliance re-exported as `domain`'s live version, in that site's own
   * deployments (recorded with origin `reexport`); resolves once it is live. app/ hands it to the
   * export feature as its deploy port.
   */
  deploy(bundle: { domain: string; zipPath: string; jobId: string; sha256?: string }): Promise<void>;
  /** Reader sign-in for other surfaces (feedback): may a request's reader open a page of a host's live site. */
  readerMayOpen: ReaderMayOpen;
  /** Preview versions, apart from the live ones (app/ hands them to sources). */
  previews: PreviewHosting;
}

/** What the deployment feature needs from the rest of the appliance, passed in by app/. */
export interface DeploymentsDeps {
  /** Told of every file a GET got from a live site (page-view counting hooks in here). */
  onPageServed?: PageServedHook;
  /** The X-Enclave-Site value sent with every file of the live sites (see SiteHandlerOptions). */
  siteMark?: string;
  /** Reader sign-in's gate (see ReaderGate); absent: every site is open. */
  readerGate?: ReaderGate;
  /** Answers a site request that is a preview's (sources' previews), or says false: the live site answers. */
  sitePreview?: (request: SiteRequest) => ReturnType<SiteRequestHandler> | false;
}

/**
 * Builds the deployment module. The last active version of every site is restored from disk
 * here, before the server listens, so a restart serves at once; `start()` then fetches the
 * configured bundles in the background (the old versions keep serving meanwhile).
 */
export async function createDeploymentsFeature(ctx: FeatureContext, deps: DeploymentsDeps): Promise<DeploymentsFeature> {
  const { config, logger } = ctx;
  const sites = await SiteDeployments.open({ config, logger, clock: ctx.clock, sites: ctx.sites });
  // A zip this appliance built, activated in place (no copy) on `domain`'s site; resolves once live.
  const activateLocal = async (zipPath: string, label: string, domain: string | null, request: DeployRequest, sha256?: string) => {
    const deployer = await sites.ensure(domain);
    const started = await deployer.beginLocal(zipPath, label, request, sha256);
    return started.done;
  };

  const { siteHandler, previews } = buildSiteHandler(ctx, deps, sites);
  return {
    name: 'deployments',
    routes: deploymentRoutes(sites, config.staticExport.deployWaitSeconds * 1000),
    siteHandler,
    previews,
    activeSite: sites,
    sites,
    readerMayOpen: readerMayOpenPage(sites, deps.readerGate),
    async activateBundleFile(zipPath, options) {
      const record = await activateLocal(zipPath, options.source, options.domain ?? null, {
        origin: 'export',
        pin: options.version ?? null,
      });
      return { version: record.version ?? '' };
    },
    async deploy(bundle) {
      await activateLocal(bundle.zipPath, `export ${bundle.jobId}`, bundle.domain, { origin: 'reexport', pin: null }, bundle.sha256);
    },
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
    },
    async stop() {
      // A deployment still running is not waited for: its staging directory is deleted and its
      // record marked failed on the next start, and the live version is untouched either way.
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

/**
 * The site handler: the live sites', behind the preview hook when there is one (a preview's
 * reserved prefix or host is taken first; everything else is the live site's), and the preview
 * versions it serves from.
 */
function buildSiteHandler(
  ctx: FeatureContext,
  deps: DeploymentsDeps,
  sites: SiteDeployments,
): { siteHandler: SiteRequestHandler; previews: PreviewVersions } {
  const { config, logger } = ctx;
  const tryItOrigins = config.staticExport.tryItOrigins.map((o) => o.toLowerCase());
  const liveHandler = createSiteHandler(sites, {
    logger,
    onPageServed: deps.onPageServed,
    siteMark: deps.siteMark,
    readerGate: deps.readerGate,
    tryItOrigins,
  });
  const previews = new PreviewVersions({
    dataDir: config.dataDir,
    limits: config.staticExport,
    sites: ctx.sites,
    logger,
    readerGate: deps.readerGate,
    tryItOrigins,
  });
  const { sitePreview } = deps;
  if (!sitePreview) return { siteHandler: liveHandler, previews };
  const siteHandler: SiteRequestHandler = (request) => {
    const answered = sitePreview(request);
    return answered === false ? liveHandler(request) : answered;
  };
  return { siteHandler, previews };
}
