import { rm, stat } from 'node:fs/promises';
import type { Logger } from 'pino';
import { BundleRefusedError } from '../../bundle/BundleRefusedError.js';
import { fetchBundle, type FetchedBundle } from '../../bundle/fetchBundle.js';
import { sha256OfFile } from '../../platform/sha256OfFile.js';
import type { Config } from '../../config/schema.js';
import { redactUrl } from '../../platform/logging/redact.js';
import type { Readiness } from '../Feature.js';
import { isDiskFull } from '../../platform/store/isDiskFull.js';
import type { JsonStore } from '../../platform/store/JsonStore.js';
import type { SiteRepository } from '../control/SiteRepository.js';
import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import { randomId } from '../../platform/randomId.js';
import {
  byActivationDesc,
  pushEvent,
  trimRecords,
  type DeploymentOrigin,
  type DeploymentRecord,
  type DeploymentsData,
} from './deploymentStore.js';
import { failedPagesRefusal, readFailedPages } from './readFailedPages.js';
import { checkBundleDomain } from './checkBundleDomain.js';
import { applyRedeploy, findRedeployTarget } from './foldRedeploy.js';
import { installBundleVersion } from './installBundleVersion.js';
import { LiveSite } from './LiveSite.js';
import { loadSiteVersion } from './loadSiteVersion.js';
import { restoreSiteVersions } from './restoreSiteVersions.js';
import type { SiteVersion } from './SiteVersion.js';
import { versionLayout, type SiteDirs } from './versionLayout.js';

/** What the deployer is built from. */
export interface SiteDeployerDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  sites: SiteRepository;
  store: JsonStore<DeploymentsData>;
  /** The site these deployments serve: its domain, or null for the default site. */
  site: string | null;
  dirs: SiteDirs;
}

/** How to deploy one bundle. */
export interface DeployRequest {
  origin: DeploymentOrigin;
  /** Version the bundle's manifest must name, or null for any. */
  pin: string | null;
  /** Refuse with 409 instead of waiting when another deployment is running (API callers). */
  failIfBusy?: boolean;
  /** The operator's name for the deployment. */
  label?: string | null;
  /** Activate even when the bundle's build report lists failed pages (recorded on the deployment). */
  allowFailed?: boolean;
  /**
   * Refuse a bundle whose manifest names another domain than this site's (operator deploys;
   * the config's own bundle and re-exports are this site's by construction).
   */
  checkDomain?: boolean;
  /** With checkDomain: deploy it here anyway (recorded on the deployment). */
  allowOtherDomain?: boolean;
}

/** How a deployment ended: a new version went live, the bundle was already live, or a kept copy of it was switched to. */
export type DeployOutcome = 'activated' | 'unchanged' | 'reactivated';

/** A deployment that has been recorded and is running in the background. */
export interface StartedDeployment {
  record: DeploymentRecord;
  /** The record that answers for it once finished (an existing one when the bundle was already on disk). */
  done: Promise<DeploymentRecord>;
  /** The same, with how it ended. */
  finished: Promise<{ record: DeploymentRecord; outcome: DeployOutcome }>;
}

/**
 * The deployment operations: fetch → verify → extract → switch, roll back, prune, restore. One
 * deployment or rollback runs at a time (a queue); each is recorded durably before and after,
 * and the live pointer moves only once the new version is complete on disk and recorded.
 */
export class SiteDeployer {
  readonly live: LiveSite;
  private readonly versions = new Map<string, SiteVersion>();
  private queue: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private readonly dirs: SiteDirs;

  private constructor(private readonly deps: SiteDeployerDeps) {
    this.live = new LiveSite(deps.sites, deps.site);
    this.dirs = deps.dirs;
  }

  /** The site served by these deployments: its domain, or null for the default site. */
  get site(): string | null {
    return this.deps.site;
  }

  /** Opens the deployer and restores the last active version from disk (no fetch). */
  static async open(deps: SiteDeployerDeps): Promise<SiteDeployer> {
    const deployer = new SiteDeployer(deps);
    const loaded = await restoreSiteVersions(deps.store, deployer.dirs, deps.clock, deps.logger);
    for (const version of loaded) deployer.versions.set(version.id, version);
    deployer.publish();
    return deployer;
  }

  /** Records a deployment of `source` (URL or path) and runs it after any running one. */
  async begin(source: string, request: DeployRequest): Promise<StartedDeployment> {
    const obtain = () =>
      fetchBundle(source, {
        incomingDir: this.dirs.incoming,
        maxBytes: this.deps.config.staticExport.maxBundleBytes,
        timeoutMs: this.deps.config.staticExport.fetchTimeoutSeconds * 1000,
      });
    return this.enqueue(redactUrl(source), request, async () => ({ ...(await obtain()), owned: true }));
  }

  /** Records a deployment of a zip already on local disk (an export of this appliance); it is read in place. */
  async beginLocal(zipPath: string, label: string, request: DeployRequest): Promise<StartedDeployment> {
    return this.enqueue(label, request, async () => {
      const info = await stat(zipPath).catch((err: NodeJS.ErrnoException) => {
        throw new BundleRefusedError(`cannot read bundle ${zipPath}: ${err.code ?? err.message}`, 'fetch');
      });
      return { path: zipPath, sizeBytes: info.size, sha256: await sha256OfFile(zipPath), owned: false };
    });
  }

  /** Switches back to a kept version: the named one (version label or deployment id), else the previous. */
  async rollback(target: string | null): Promise<DeploymentRecord> {
    if (this.queued > 0)
      throw AppError.conflict('A deployment is in progress; try again when it has finished', { deploymentId: this.running()?.id ?? null });
    return this.exclusive(async () => {
      const data = this.deps.store.data;
      const kept = data.deployments.filter((d) => d.status === 'kept' && this.versions.has(d.id)).sort(byActivationDesc);
      const active = data.deployments.find((d) => d.id === data.activeId);
      if (target !== null && active && (active.id === target || active.version === target))
        throw AppError.conflict(`Version ${active.version} is already active`);
      const chosen = target === null ? kept[0] : kept.find((d) => d.id === target || d.version === target);
      if (!chosen)
        throw AppError.notFound(
          target === null ? 'No earlier version is kept to roll back to' : `No kept version ${JSON.stringify(target)}`,
        );
      const at = this.now();
      await this.deps.store.update((d) => {
        for (const r of d.deployments) {
          if (r.id === d.activeId) r.status = 'kept';
          if (r.id === chosen.id) Object.assign(r, { status: 'active', activatedAt: at });
        }
        d.activeId = chosen.id;
        d.lastError = null;
        pushEvent(d, {
          at,
          kind: 'rolled_back',
          deploymentId: chosen.id,
          version: chosen.version,
          detail: active ? `from ${active.version}` : null,
        });
      });
      this.publish();
      this.deps.logger.info({ deploymentId: chosen.id, version: chosen.version }, `rolled back to version ${chosen.version}`);
      return this.record(chosen.id)!;
    });
  }

  /** The deployment currently running, if any. */
  running(): DeploymentRecord | null {
    return this.deps.store.data.deployments.find((d) => d.status === 'running') ?? null;
  }

  /** One record by id (a redeploy folded into an existing version answers with that version's record). */
  record(id: string): DeploymentRecord | undefined {
    const data = this.deps.store.data;
    const wanted = data.merged[id] ?? id;
    return data.deployments.find((d) => d.id === wanted);
  }

  /** The state shown by `GET /v1/deployments`. */
  status(): {
    active: DeploymentRecord | null;
    kept: DeploymentRecord[];
    running: DeploymentRecord | null;
    history: DeploymentRecord[];
    events: DeploymentsData['events'];
    lastError: DeploymentsData['lastError'];
  } {
    const data = this.deps.store.data;
    return {
      active: data.deployments.find((d) => d.id === data.activeId) ?? null,
      kept: data.deployments.filter((d) => d.status === 'kept').sort(byActivationDesc),
      running: this.running(),
      history: data.deployments.slice(0, 20),
      events: data.events.slice(-20).reverse(),
      lastError: data.lastError,
    };
  }

  /** Readiness of the live site: degraded while the last deployment failed, unavailable with no version. */
  readiness(): Readiness {
    const live = this.live.version();
    const lastError = this.deps.store.data.lastError;
    if (!live) {
      const running = this.running();
      const detail = running
        ? 'no site version is active yet; a deployment is in progress'
        : `no site version is active${lastError ? `; last deployment failed: ${lastError.reason}` : ''}`;
      return { status: 'unavailable', detail };
    }
    if (lastError)
      return {
        status: 'degraded',
        detail: `serving version ${live.version}; last deployment failed: ${lastError.reason}`,
        version: live.version,
        domain: live.domain,
      };
    return { status: 'ok', version: live.version, domain: live.domain };
  }

  /** What the last scheduled re-export of `domain` built, if any. */
  lastReexport(domain: string): DeploymentsData['reexports'][string] | undefined {
    return this.deps.store.data.reexports[domain];
  }

  /** Remembers a re-export of `domain` durably, so an unchanged source is not exported again. */
  async recordReexport(domain: string, built: DeploymentsData['reexports'][string]): Promise<void> {
    await this.deps.store.update((d) => {
      d.reexports[domain] = built;
    });
  }

  /** Writes pending state to disk (shutdown). */
  async flush(): Promise<void> {
    await this.deps.store.flush();
  }

  /** Waits for queued work (shutdown). */
  async drain(): Promise<void> {
    await this.queue.catch(() => {});
  }

  private async enqueue(
    source: string,
    request: DeployRequest,
    obtain: () => Promise<FetchedBundle & { owned: boolean }>,
  ): Promise<StartedDeployment> {
    if (request.failIfBusy && this.queued > 0) {
      throw AppError.conflict('Another deployment is in progress', { deploymentId: this.running()?.id ?? null });
    }
    const record: DeploymentRecord = {
      id: randomId('dp_'),
      status: 'running',
      origin: request.origin,
      source,
      pin: request.pin,
      version: null,
      domain: null,
      jobId: null,
      bundleSha256: null,
      bundleBytes: null,
      fileCount: null,
      extractedBytes: null,
      requestedAt: this.now(),
      finishedAt: null,
      activatedAt: null,
      error: null,
      site: this.deps.site,
      label: request.label ?? null,
      failedPages: null,
      allowFailed: request.allowFailed ?? false,
      ...(request.checkDomain ? { domainCheck: request.allowOtherDomain ? 'overridden' : 'required' } : {}),
    };
    const finished = this.exclusive(async () => {
      await this.deps.store.update((d) => {
        d.deployments.unshift(record);
      });
      return this.run(record.id, obtain);
    });
    const done = finished.then((f) => f.record);
    done.catch(() => {}); // callers await one of the two; the other must not go unhandled
    return { record: { ...record }, done, finished };
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    this.queued++;
    const result = this.queue.then(work);
    this.queue = result.catch(() => {}).finally(() => this.queued--);
    return result;
  }

  private async run(
    id: string,
    obtain: () => Promise<FetchedBundle & { owned: boolean }>,
  ): Promise<{ record: DeploymentRecord; outcome: DeployOutcome }> {
    const record = this.record(id)!;
    const { config, logger, store } = this.deps;
    let fetched: (FetchedBundle & { owned: boolean }) | null = null;
    const started = Date.now();
    try {
      fetched = await obtain();
      const bundle = fetched;
      const reused = await this.reuseVersionOnDisk(record, bundle.sha256);
      if (reused) return reused;
      const report: { failedPages: number | null } = { failedPages: null };
      const installed = await installBundleVersion(
        bundle.path,
        this.dirs.versions,
        id,
        config.staticExport,
        record.pin,
        async (filesDir, manifest) => {
          if (record.domainCheck === 'required') {
            const target = {
              domain: this.deps.site ?? config.staticExport.domain ?? this.live.version()?.domain ?? null,
              isDefaultSite: !this.deps.site,
            };
            const refusal = checkBundleDomain(manifest.domain, target);
            if (refusal) throw refusal;
          }
          const failed = await readFailedPages(filesDir);
          report.failedPages = failed?.length ?? null;
          if (failed?.length && !record.allowFailed)
            throw failedPagesRefusal(
              failed.length,
              failed.map((f) => f.path),
            );
        },
      );
      const version = await loadSiteVersion(id, installed.layout);
      const at = this.now();
      await store.update((d) => {
        for (const r of d.deployments) if (r.id === d.activeId) r.status = 'kept';
        Object.assign(this.record(id)!, {
          status: 'active',
          version: installed.manifest.version,
          domain: installed.manifest.domain,
          jobId: installed.manifest.jobId ?? null,
          bundleSha256: bundle.sha256,
          bundleBytes: bundle.sizeBytes,
          fileCount: installed.fileCount,
          extractedBytes: installed.extractedBytes,
          finishedAt: at,
          activatedAt: at,
          failedPages: report.failedPages,
        });
        d.activeId = id;
        d.lastError = null;
        if (record.origin === 'config') d.configBundleSha256 = bundle.sha256;
        pushEvent(d, { at, kind: 'activated', deploymentId: id, version: installed.manifest.version, detail: record.source });
      });
      this.versions.set(id, version);
      this.publish();
      if (report.failedPages && record.allowFailed)
        logger.warn(
          { deploymentId: id, failedPages: report.failedPages },
          `version ${version.version} went live with ${report.failedPages} failed pages (allowFailed)`,
        );
      logger.info(
        {
          deploymentId: id,
          site: this.deps.site,
          version: version.version,
          domain: version.domain,
          files: installed.fileCount,
          ms: Date.now() - started,
        },
        `site version ${version.version} is live`,
      );
      await this.prune();
      return { record: this.record(id)!, outcome: 'activated' };
    } catch (err) {
      // Internal failures are logged in full but recorded and answered without paths or internals.
      const diskFull = isDiskFull(err);
      const reason =
        err instanceof BundleRefusedError ? err.reason : diskFull ? 'the data volume is full' : 'internal error (see the server log)';
      logger.warn(
        { deploymentId: id, source: record.source, reason, ...(err instanceof BundleRefusedError ? {} : { err }) },
        `bundle refused, the live site is unchanged: ${reason}`,
      );
      await store
        .update((d) => {
          Object.assign(this.record(id)!, {
            status: 'failed',
            error: reason,
            finishedAt: this.now(),
            bundleSha256: fetched?.sha256 ?? null,
            bundleBytes: fetched?.sizeBytes ?? null,
          });
          d.lastError = { at: this.now(), source: record.source, reason };
          pushEvent(d, { at: this.now(), kind: 'refused', deploymentId: id, version: null, detail: reason });
          trimRecords(d);
        })
        .catch((storeErr) => logger.error({ err: storeErr }, 'could not record the failed deployment'));
      if (diskFull) throw AppError.insufficientStorage('The data volume is full; the bundle was not activated');
      throw err instanceof BundleRefusedError ? err : new BundleRefusedError(reason);
    } finally {
      if (fetched?.owned) await rm(fetched.path, { force: true });
    }
  }

  /**
   * A redeploy of a bundle already on disk adds no history row: the new record is folded into
   * the existing one (see DeploymentsData.merged). The active bundle stays active; a kept one is
   * switched to, like a rollback; a config bundle applied before leaves the operator's choice.
   * Returns the record that answers for the deployment, or null when the bundle must be installed.
   */
  private async reuseVersionOnDisk(
    record: DeploymentRecord,
    sha256: string,
  ): Promise<{ record: DeploymentRecord; outcome: DeployOutcome } | null> {
    const folded = findRedeployTarget(this.deps.store.data, record, sha256, (id) => this.versions.has(id));
    if (!folded) return null;
    await this.deps.store.update((d) => applyRedeploy(d, record, sha256, folded, this.now()));
    if (folded.outcome === 'reactivated') this.publish();
    const target = this.record(folded.targetId)!;
    this.deps.logger.info(
      { deploymentId: target.id, site: this.deps.site, source: record.source },
      `redeploy of version ${target.version}: ${folded.detail}`,
    );
    return { record: target, outcome: folded.outcome };
  }

  /** Points the live site at the recorded active version, with the kept ones as asset fallbacks. */
  private publish(): void {
    const data = this.deps.store.data;
    const active = data.activeId ? (this.versions.get(data.activeId) ?? null) : null;
    const kept = data.deployments.filter((d) => d.status === 'kept').sort(byActivationDesc);
    this.live.switchTo(
      active,
      kept.map((d) => this.versions.get(d.id)).filter((v): v is SiteVersion => v !== undefined),
    );
  }

  /** Keeps the newest `keepVersions` versions (the live one always) and deletes the rest once idle. */
  private async prune(): Promise<void> {
    const { store, config, logger } = this.deps;
    const onDisk = store.data.deployments.filter((d) => d.status === 'active' || d.status === 'kept').sort(byActivationDesc);
    const keep = new Set(onDisk.slice(0, config.staticExport.keepVersions).map((d) => d.id));
    if (store.data.activeId) keep.add(store.data.activeId);
    const doomed = onDisk.filter((d) => !keep.has(d.id));
    if (doomed.length === 0) return;
    await store.update((d) => {
      for (const r of d.deployments) {
        if (!doomed.some((x) => x.id === r.id)) continue;
        r.status = 'removed';
        pushEvent(d, { at: this.now(), kind: 'removed', deploymentId: r.id, version: r.version, detail: 'older than the kept versions' });
      }
      trimRecords(d);
    });
    this.publish();
    for (const record of doomed) {
      const dir = versionLayout(this.dirs.versions, record.id).dir;
      const remove = () =>
        rm(dir, { recursive: true, force: true }).catch((err) => logger.error({ err, dir }, 'could not delete an old site version'));
      const loaded = this.versions.get(record.id);
      this.versions.delete(record.id);
      // A version still answering requests is deleted when its last one finishes.
      if (loaded?.inUse()) loaded.retire(() => void remove());
      else {
        loaded?.retire(() => {}); // gives its cached bodies back now
        await remove();
      }
    }
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
