import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { createApp } from './createApp.js';
import type { Config } from '../config/schema.js';
import { bootstrapDataDir, prepareDataDir } from './bootstrap/bootstrapDataDir.js';
import { serveSampleSite } from './bootstrap/serveSampleSite.js';
import type { Clock } from '../platform/Clock.js';
import { createFeatures, type Features } from './createFeatures.js';
import type { ControlStore } from '../features/control/ControlStore.js';
import { openControlStore } from '../features/control/ControlStore.js';
import { DataDirLock } from '../platform/store/DataDirLock.js';
import { probeWritable } from '../platform/store/probeWritable.js';
import { Scheduler } from '../platform/Scheduler.js';
import { appVersion } from './appVersion.js';
import { closeGracefully, listen } from './listen.js';
import { createInitialAdminKey, forgetInitialAdminKeyOnUse } from './bootstrap/initialAdminKey.js';
import { issueLocalCliKey } from '../features/control/localCliKey.js';

/** A running appliance. */
export interface RunningAppliance {
  url: string;
  port: number;
  httpServer: Server;
  /** Where the admin API answers: `url` unless `server.adminListen` gives it a listener of its own. */
  adminUrl: string;
  /** The admin listener, or null when the admin API shares the site's. */
  adminServer: Server | null;
  /** Where the dashboard answers (`${dashboardUrl}/_enclave/admin`): the admin listener, or one of its own. */
  dashboardUrl: string;
  control: ControlStore;
  features: Features;
  /**
   * The first site version being prepared at start (the sample docs' first export): resolves
   * with its version once live, or null if it failed; null when nothing was to be prepared.
   */
  firstSiteVersion: Promise<string | null> | null;
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
// size: the start sequence in the order it must run (lock, store, bootstrap, features, servers, stop); each step is a call
export async function startAppliance(options: {
  config: Config;
  logger: Logger;
  clock: Clock;
  serveSample?: boolean;
}): Promise<RunningAppliance> {
  const { config, logger, clock } = options;
  await prepareDataDir(config.dataDir);
  const lock = await DataDirLock.acquire(config.dataDir);
  lock.onLost(() =>
    logger.error(
      { dataDir: config.dataDir },
      'the data directory lock was lost (its flock process was killed): another process could now take the directory; restart this server',
    ),
  );
  try {
    const control = await openControlStore(config);
    const boot = await bootstrapDataDir(config.dataDir, control, clock, { deferAdminKey: true });
    let publicUrl = config.server.publicUrl ?? '';
    const base = { config, logger, clock, keyring: boot.keyring, publicUrl: () => publicUrl, version: appVersion };
    const features = await createFeatures(base, control);
    const appDeps = { config, logger, features: features.all, version: appVersion };
    const { adminListen } = config.server;
    const { app } = createApp({ ...appDeps, surface: adminListen ? 'site' : 'all' });
    const { httpServer, port } = await listen(app, config.server);
    const url = localUrl(config.server.host, port);
    let admin: { httpServer: Server; port: number } | null = null;
    if (adminListen) {
      try {
        admin = await listen(createApp({ ...appDeps, surface: 'admin' }).app, config.server, adminListen);
      } catch (err) {
        httpServer.close();
        throw err;
      }
    }
    const adminUrl = admin && adminListen ? localUrl(adminListen.host, admin.port) : url;
    // Without an admin listener the dashboard gets one of its own: on the site's origin any docs
    // page script could read the key it holds (a port is an origin of its own).
    let dashboard: { httpServer: Server; port: number } | null = null;
    if (!adminListen) {
      try {
        const at = { host: config.server.host, port: dashboardPort(config.server) };
        dashboard = await listen(createApp({ ...appDeps, surface: 'admin' }).app, config.server, at);
      } catch (err) {
        httpServer.close();
        throw err;
      }
    }
    const dashboardUrl = dashboard ? localUrl(config.server.host, dashboard.port) : adminUrl;
    publicUrl ||= url;
    const createdAdminKey = await createInitialAdminKey(config.dataDir, control, clock, boot.projectId);
    forgetInitialAdminKeyOnUse(config.dataDir, control);
    // The CLI finds the admin API (its URL in the lock file, the local key beside it). On a full
    // volume neither can be written: the site still serves, and the CLI works once space is freed.
    let removeCliKey = () => {};
    try {
      lock.advertise(adminUrl);
      removeCliKey = issueLocalCliKey(control, config.dataDir, boot.projectId, clock);
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'could not record the URL and local key the CLI uses to reach this server');
    }
    for (const feature of features.all) await feature.start?.();
    // One cron for every feature's tasks, once each feature's own start (recovery) is done.
    const scheduler = new Scheduler(logger, clock);
    for (const task of features.all.flatMap((f) => f.tasks ?? [])) scheduler.add(task);
    // A full volume does not stop the start (nothing above writes unless it must): the site is
    // served and every write answers 507 until space is freed, with no restart needed.
    const probe = await probeWritable(config.dataDir);
    if (!probe.writable) logger.warn(`${probe.detail}: serving the active site version read-only; writes answer 507 until space is freed`);
    const firstSiteVersion = (options.serveSample ?? true) ? serveSampleSite(config, features, logger) : null;

    let stopping: Promise<void> | null = null;
    const stop = () =>
      (stopping ??= (async () => {
        await Promise.all(
          [httpServer, ...[admin, dashboard].flatMap((l) => (l ? [l.httpServer] : []))].map((server) =>
            closeGracefully(server, config.server.shutdownTimeoutMs),
          ),
        );
        await scheduler.stop();
        // Control is first, so it stops last: its stop writes the store every feature read.
        for (const feature of [...features.all].reverse())
          await feature.stop?.().catch((err) => logger.error({ err, feature: feature.name }, 'feature stop failed'));
        removeCliKey();
        await lock.release();
      })());
    return {
      url,
      port,
      httpServer,
      adminUrl,
      adminServer: admin?.httpServer ?? null,
      dashboardUrl,
      control,
      features,
      createdAdminKey,
      firstSiteVersion,
      projectId: boot.projectId,
      stop,
    };
  } catch (err) {
    await lock.release();
    throw err;
  }
}

/** `server.dashboardPort`, or the port after the site's (a free one when the site's is picked freely). */
function dashboardPort(server: Config['server']): number {
  if (server.dashboardPort !== null) return server.dashboardPort;
  return server.port === 0 || server.port === 65535 ? 0 : server.port + 1;
}

/** A URL this machine can use to reach a listener on `host` (wildcard addresses become loopback). */
function localUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
