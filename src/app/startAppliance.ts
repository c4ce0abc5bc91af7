import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { createApp } from './createApp.js';
import type { Config } from '../config/schema.js';
import { bootstrapDataDir, prepareDataDir } from './bootstrap/bootstrapDataDir.js';
import { serveSampleSite } from './bootstrap/serveSampleSite.js';
import type { Clock } from '../platform/Clock.js';
import type { FeatureContext } from '../features/Feature.js';
import { createFeatures, type Features } from './createFeatures.js';
import type { ControlStore } from '../features/control/ControlStore.js';
import { openControlStore } from '../features/control/ControlStore.js';
import { DataDirLock } from '../platform/store/DataDirLock.js';
import { appVersion } from './appVersion.js';
import { closeGracefully, listen } from './listen.js';
import { createInitialAdminKey, forgetInitialAdminKeyOnUse } from './bootstrap/initialAdminKey.js';
import { issueLocalCliKey } from '../features/control/localCliKey.js';

/** A running appliance. */
export interface RunningAppliance {
  url: string;
  port: number;
  httpServer: Server;
  control: ControlStore;
  features: Features;
  /** The admin key created by this start (first start only), or null. */
  createdAdminKey: string | null;
  projectId: string;
  /** Graceful stop: no new connections, drain, stop workers, flush the store, release the lock. */
  stop(): Promise<void>;
}

/**
 * Starts the whole appliance on a data directory: lock, store, first-start bootstrap,
 * features, HTTP server, background work. Used by `enclave serve` and by tests.
 */
export async function startAppliance(options: { config: Config; logger: Logger; clock: Clock; serveSample?: boolean }): Promise<RunningAppliance> {
  const { config, logger, clock } = options;
  await prepareDataDir(config.dataDir);
  const lock = DataDirLock.acquire(config.dataDir);
  try {
    const control = await openControlStore(config);
    const boot = await bootstrapDataDir(config.dataDir, control, clock, { deferAdminKey: true });
    let publicUrl = config.server.publicUrl ?? '';
    const ctx: FeatureContext = { config, logger, clock, control, keyring: boot.keyring, publicUrl: () => publicUrl, version: appVersion };
    const features = await createFeatures(ctx);
    const { app } = createApp({ config, logger, clock, control, features: features.all, version: appVersion });
    const { httpServer, port } = await listen(app, config.server);
    const host = config.server.host === '0.0.0.0' || config.server.host === '::' ? '127.0.0.1' : config.server.host;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    publicUrl ||= url;
    lock.advertise(url);
    const createdAdminKey = await createInitialAdminKey(config.dataDir, control, clock, boot.projectId);
    forgetInitialAdminKeyOnUse(config.dataDir, control);
    const removeCliKey = issueLocalCliKey(control, config.dataDir, boot.projectId, clock);
    for (const feature of features.all) await feature.start?.();
    if (options.serveSample ?? true) serveSampleSite(config, features, logger);

    let stopping: Promise<void> | null = null;
    const stop = () =>
      (stopping ??= (async () => {
        await closeGracefully(httpServer, config.server.shutdownTimeoutMs);
        for (const feature of [...features.all].reverse()) await feature.stop?.().catch((err) => logger.error({ err, feature: feature.name }, 'feature stop failed'));
        await control.document.flush();
        removeCliKey();
        lock.release();
      })());
    return { url, port, httpServer, control, features, createdAdminKey, projectId: boot.projectId, stop };
  } catch (err) {
    lock.release();
    throw err;
  }
}
