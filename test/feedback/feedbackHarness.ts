import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createApp } from '../../src/app/createApp.js';
import type { SiteRequestHandler } from '../../src/http/SiteRequestHandler.js';
import type { Config } from '../../src/config/schema.js';
import { bootstrapDataDir, prepareDataDir } from '../../src/app/bootstrap/bootstrapDataDir.js';
import { systemClock, type Clock } from '../../src/platform/Clock.js';
import { createLogger } from '../../src/platform/logging/createLogger.js';
import type { ActiveSiteInfo } from '../../src/features/deployments/ActiveSite.js';
import type { FeatureContext } from '../../src/features/Feature.js';
import { createFeedbackFeature, type FeedbackFeature } from '../../src/features/feedback/feedbackFeature.js';
import { closeGracefully, listen } from '../../src/app/listen.js';
import { RateLimiter } from '../../src/http/RateLimiter.js';
import { openControlStore, type ControlStore } from '../../src/features/control/ControlStore.js';
import { createControlFeature } from '../../src/features/control/controlFeature.js';
import { createSiteDirectory } from '../../src/features/control/createSiteDirectory.js';
import { checkAgainstOpenApi } from '../helpers/openApiConformance.js';
import { makeTempDir, makeTestConfig, type ConfigOverrides } from '../helpers/testAppliance.js';

/** The pages of the fake live site. */
export const SITE_PAGES = ['/', '/guides/start', '/reference/api'];

/** A live site as the deployment module would report it; tests may switch it off (`site.live = null`). */
export interface FakeSite {
  live: ActiveSiteInfo | null;
}

/** The feedback module alone, behind the real app and HTTP server, with a fake live site. */
export interface FeedbackHarness {
  url: string;
  key: string;
  projectId: string;
  dataDir: string;
  config: Config;
  control: ControlStore;
  module: FeedbackFeature;
  site: FakeSite;
  /** POSTs a submission (same-origin unless headers say otherwise). */
  post(body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Admin GET/PATCH against the analytics API of this project. */
  api(path: string, init?: { method?: string; json?: unknown; key?: string }): Promise<Response>;
  /** Stops the server and module; keeps the data directory when `keepData`. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * Starts the app with only the feedback module (the deployment module is someone else's and
 * may not serve a site yet). `dataDir` reuses a directory, e.g. to test a restart; `siteHandler`
 * serves pages on the non-admin paths (the browser test serves rendered output with it).
 */
export async function startFeedbackHarness(
  options: { overrides?: ConfigOverrides; clock?: Clock; dataDir?: string; siteHandler?: SiteRequestHandler; pages?: string[] } = {},
): Promise<FeedbackHarness> {
  const dataDir = options.dataDir ?? (await makeTempDir('enclave-feedback-'));
  const config = makeTestConfig(dataDir, options.overrides);
  const clock = options.clock ?? systemClock;
  const logger = createLogger('silent');
  await prepareDataDir(dataDir);
  const control = await openControlStore(config);
  const boot = await bootstrapDataDir(dataDir, control, clock);
  let key = boot.adminKey;
  if (!key) {
    const { createAdminKey } = await import('../../src/features/control/createAdminKey.js');
    key = (await createAdminKey(control, clock, { projectId: boot.projectId, name: 'test', scope: 'write' })).key;
  }
  const site: FakeSite = {
    live: { domain: 'docs.test', projectId: boot.projectId, version: 'v1', pagePaths: new Set(options.pages ?? SITE_PAGES) },
  };
  const ctx: FeatureContext = {
    config,
    logger,
    clock,
    sites: createSiteDirectory(control),
    keyring: boot.keyring,
    publicUrl: () => '',
    version: 'test',
  };
  const analyticsLimiter = new RateLimiter('analytics', config.analytics.requestsPerHour, 60 * 60_000, clock);
  const module = await createFeedbackFeature(ctx, {
    activeSite: { current: () => site.live, all: () => (site.live ? [site.live] : []) },
    analyticsLimiter,
  });
  // The control feature authenticates the analytics API's admin key.
  const controlFeature = createControlFeature({ clock, logger }, control);
  const features = [
    controlFeature,
    module,
    ...(options.siteHandler ? [{ name: 'site', routes: [], siteHandler: options.siteHandler }] : []),
  ];
  const { app } = createApp({ config, logger, features, version: 'test' });
  const { httpServer, port } = await listen(app, config.server);
  await module.start?.();
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    key,
    projectId: boot.projectId,
    dataDir,
    config,
    control,
    module,
    site,
    async post(body, headers = {}) {
      const target = new URL(`${url}/_enclave/feedback`);
      const res = await fetch(target, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      await checkAgainstOpenApi(url, 'POST', target, res);
      return res;
    },
    async api(path, init = {}) {
      const headers: Record<string, string> = { Authorization: `Bearer ${init.key ?? key}` };
      if (init.json !== undefined) headers['Content-Type'] = 'application/json';
      const target = new URL(`${url}/v1/analytics/${boot.projectId}${path}`);
      const method = init.method ?? 'GET';
      const res = await fetch(target, { method, headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
      // The same check as every appliance's api() (test/helpers/openApiConformance.ts).
      await checkAgainstOpenApi(url, method, target, res);
      return res;
    },
    async close(closeOptions = {}) {
      await closeGracefully(httpServer as Server, 2000);
      await module.stop?.();
      await control.document.flush();
      if (!closeOptions.keepData && !options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
