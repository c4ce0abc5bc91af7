import { rm, stat } from 'node:fs/promises';
import type { Logger } from 'pino';
import { BundleRefusedError } from '../../bundle/BundleRefusedError.js';
import { fetchBundle, type FetchedBundle } from '../../bundle/fetch/fetchBundle.js';
import { sha256OfFile } from '../../platform/sha256OfFile.js';
import type { Config } from '../../config/schema.js';
import { redactUrl } from '../../platform/logging/redact.js';
import type { Readiness } from '../Feature.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import { randomId } from '../../platform/randomId.js';
import type { DeploymentRecord } from './deploymentStore.js';
import type { DeploymentRepository, DeploymentStatus } from './DeploymentRepository.js';
import { newDeploymentRecord, type DeployOutcome, type DeployRequest, type StartedDeployment } from './DeployRequest.js';
import { checkFailedPages } from './readFailedPages.js';
import { checkBundleDomain } from './checkBundleDomain.js';
import { installBundleVersion } from './installBundleVersion.js';
import { LiveSite } from './LiveSite.js';
import { announceLiveVersion } from './announceLiveVersion.js';
import { loadSiteVersion } from './loadSiteVersion.js';
import { restoreSiteVersions } from './restoreSiteVersions.js';
import { siteReadiness } from './siteReadiness.js';
import { collapseVersions, pruneSiteVersions, type RetentionDeps } from './pruneSiteVersions.js';
import { recordRefusal } from './recordRefusal.js';
import { chooseRollbackTarget } from './chooseRollbackTarget.js';
import type { SiteVersion } from './SiteVersion.js';
import type { SiteDirs } from './versionLayout.js';
import { INLINE_COMPRESS_BYTES, VariantSettler } from './VariantSettler.js';
import { DeployQueue } from './DeployQueue.js';
import { VerifiedVariants } from './VerifiedVariants.js';

/** What the deployer is built from. */
export interface SiteDeployerDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  sites: Pick<SiteDirectory, 'find' | 'onChange'>;
  deployments: DeploymentRepository;
  /** The site these deployments serve: its domain, or null for the default site. */
  site: string | null;
  dirs: SiteDirs;
}

/** A bundle on local disk, and whether it is ours to delete afterwards (a download). */
type ObtainedBundle = FetchedBundle & { owned: boolean };

/** A deployment's result: the record that answers for it and how it ended. */
type Deployed = { record: DeploymentRecord; outcome: DeployOutcome };

/**
 * The deployment operations: fetch → verify → extract → switch, roll back, prune, restore. One
 * deployment or rollback runs at a time (a queue); each is recorded durably before and after
 * (DeploymentRepository), and the live pointer moves only once the new version is complete on
 * disk and recorded.
 */
export class SiteDeployer {
  readonly live: LiveSite;
  private readonly versions = new Map<string, SiteVersion>();
  private readonly queue = new DeployQueue();
  private readonly dirs: SiteDirs;
  private readonly deployments: DeploymentRepository;
  private readonly variants: VariantSettler;
  private readonly verified = new VerifiedVariants();
  private readonly retention: RetentionDeps;

  private constructor(private readonly deps: SiteDeployerDeps) {
    this.live = new LiveSite(deps.sites, deps.site);
    this.dirs = deps.dirs;
    this.deployments = deps.deployments;
    const { logger, dirs, deployments } = deps;
    const [publish, verified] = [() => this.publish(), this.verified];
    this.retention = { deployments, versions: this.versions, versionsDir: dirs.versions, logger, publish, verified };
    const versions = () => [...new Set([this.live.version(), ...this.versions.values()])].filter((v): v is SiteVersion => v !== null);
    this.variants = new VariantSettler({ versionsDir: dirs.versions, logger, versions, busy: () => this.busy(), verified });
  }

  /** The site served by these deployments: its domain, or null for the default site. */
  get site(): string | null {
    return this.deps.site;
  }

  /** Opens the deployer and restores the last active version from disk (no fetch). */
  static async open(deps: SiteDeployerDeps): Promise<SiteDeployer> {
    const deployer = new SiteDeployer(deps);
    const loaded = await restoreSiteVersions(deps.deployments, deployer.dirs, deps.clock, deps.logger);
    for (const version of loaded) deployer.versions.set(version.id, version);
    deployer.publish();
    // A crash between a prune's record and its flattening leaves layered versions reading from
    // folders no record keeps: finish that before serving, then delete those folders.
    await collapseVersions(deployer.retention, []);
    deployer.settleVariants();
    return deployer;
  }

  /** Records a deployment of `source` (URL or path) and runs it after any running one. */
  async begin(source: string, request: DeployRequest): Promise<StartedDeployment> {
    const { maxBundleBytes: maxBytes, fetchTimeoutSeconds } = this.deps.config.staticExport;
    const obtain = () => fetchBundle(source, { incomingDir: this.dirs.incoming, maxBytes, timeoutMs: fetchTimeoutSeconds * 1000 });
    return this.enqueue(redactUrl(source), request, async () => ({ ...(await obtain()), owned: true }));
  }

  /** Records a deployment of a local zip (an export of ours, read in place; `sha256` as its job recorded it). */
  async beginLocal(zipPath: string, label: string, request: DeployRequest, sha256?: string): Promise<StartedDeployment> {
    return this.enqueue(label, request, async () => {
      const info = await stat(zipPath).catch((err: NodeJS.ErrnoException) => {
        throw new BundleRefusedError(`cannot read bundle ${zipPath}: ${err.code ?? err.message}`, 'fetch');
      });
      return { path: zipPath, sizeBytes: info.size, sha256: sha256 ?? (await sha256OfFile(zipPath)), owned: false };
    });
  }

  /** Switches back to a kept version: the named one (version label or deployment id), else the previous. */
  async rollback(target: string | null): Promise<DeploymentRecord> {
    if (this.busy())
      throw AppError.conflict('A deployment is in progress; try again when it has finished', { deploymentId: this.running()?.id ?? null });
    return this.queue.run(async () => {
      const active = this.deployments.active();
      const chosen = chooseRollbackTarget(
        this.deployments.kept().filter((d) => this.versions.has(d.id)),
        active,
        target,
      );
      await this.deployments.rollBackTo(chosen.id, this.now(), active ? `from ${active.version}` : null);
      this.publish();
      this.deps.logger.info({ deploymentId: chosen.id, version: chosen.version }, `rolled back to version ${chosen.version}`);
      this.settleVariants();
      return this.record(chosen.id)!;
    });
  }

  /** The deployment currently running, if any. */
  running(): DeploymentRecord | null {
    return this.deployments.running();
  }

  /** One record by id (a redeploy folded into an existing version answers with that version's record). */
  record(id: string): DeploymentRecord | undefined {
    return this.deployments.record(id);
  }

  /** The state shown by `GET /v1/deployments`. */
  status(): DeploymentStatus {
    return this.deployments.status();
  }

  /** Readiness of the live site: degraded while the last deployment failed, unavailable with no version. */
  readiness(): Readiness {
    return siteReadiness(this.live.version(), this.running() !== null, this.deployments.lastError());
  }

  /** Writes pending state to disk (shutdown); compression after a switch stops first. */
  async flush(): Promise<void> {
    await this.variants.close();
    await this.deployments.flush();
  }

  /** Waits for queued work (shutdown); compression after a switch is stopped rather than waited for. */
  async drain(): Promise<void> {
    await this.variants.close();
    await this.queue.drain();
  }

  private async enqueue(source: string, request: DeployRequest, obtain: () => Promise<ObtainedBundle>): Promise<StartedDeployment> {
    if (request.failIfBusy && this.busy()) {
      throw AppError.conflict('Another deployment is in progress', { deploymentId: this.running()?.id ?? null });
    }
    const record = newDeploymentRecord(randomId('dp_'), this.deps.site, source, request, this.now());
    const finished = this.queue.run(async () => {
      await this.deployments.insert(record);
      return this.run(record.id, obtain);
    });
    const done = finished.then((f) => f.record);
    done.catch(() => {}); // callers await one of the two; the other must not go unhandled
    return { record: { ...record }, done, finished };
  }

  private async run(id: string, obtain: () => Promise<ObtainedBundle>): Promise<Deployed> {
    const record = this.record(id)!;
    let fetched: ObtainedBundle | null = null;
    const started = Date.now();
    try {
      fetched = await obtain();
      return (await this.reuseVersionOnDisk(record, fetched.sha256)) ?? (await this.install(record, fetched, started));
    } catch (err) {
      throw await recordRefusal(this.deps.logger, this.deployments, { record, fetched, err, at: this.now() });
    } finally {
      // Deleting the download only tidies up, like pruning: a deploy sent meanwhile queues, no 409.
      const owned = fetched?.owned ? fetched.path : null;
      if (owned) await this.queue.stepAside(() => rm(owned, { force: true }));
    }
  }

  /** Installs the bundle as a new version, records it active and makes it live; then prunes. */
  private async install(record: DeploymentRecord, bundle: ObtainedBundle, started: number): Promise<Deployed> {
    const { id } = record;
    // Set by the inspection below, which installBundleVersion runs before precompressing.
    const report: { failedPages: number | null } = { failedPages: null };
    const { config } = this.deps;
    const domain = this.deps.site ?? config.staticExport.domain ?? this.live.version()?.domain ?? null;
    const target = record.domainCheck === 'required' ? { domain, isDefaultSite: !this.deps.site } : null;
    const inspect = async (files: string, manifest: { domain: string }) => {
      const refusal = target && checkBundleDomain(manifest.domain, target);
      if (refusal) throw refusal;
      report.failedPages = await checkFailedPages(files, record.allowFailed ?? false);
    };
    const live = this.live.version()?.id;
    const installed = await installBundleVersion(bundle.path, this.dirs.versions, id, config.staticExport, record.pin, {
      inspect,
      liveId: live,
      layered: true,
      // Only a change over a live version defers compression: a first install that deferred would
      // leave every file unsettled, and the next deploy, which takes no unsettled file from the
      // live version, would extract the whole site again.
      inlineBudget: live === undefined ? undefined : INLINE_COMPRESS_BYTES,
    });
    const { failedPages } = report;
    const version = await loadSiteVersion(id, installed.layout, installed, this.verified);
    // Serve the new version before the record says "active", so that a client who polls the
    // record and then fetches a page never gets the old one; a failed write switches back.
    // From here a new deployment queues behind the write and the pruning instead of a 409.
    this.versions.set(id, version);
    this.publish(version);
    await this.queue.stepAside(async () => {
      const { manifest } = installed;
      const facts = { version: manifest.version, domain: manifest.domain, jobId: manifest.jobId ?? null };
      const sizes = { bundleBytes: bundle.sizeBytes, fileCount: installed.fileCount, extractedBytes: installed.extractedBytes };
      await this.deployments
        .activate(id, { ...facts, ...sizes, bundleSha256: bundle.sha256, failedPages }, this.now())
        .catch((err: unknown) => {
          this.versions.delete(id);
          this.publish();
          throw err;
        });
      this.publish();
      const allowFailed = record.allowFailed ?? false;
      announceLiveVersion(this.deps.logger, { id, site: this.deps.site, version, installed, failedPages, allowFailed, started });
      await pruneSiteVersions(this.retention, this.deps.config.staticExport.keepVersions, this.now());
      this.settleVariants();
    });
    return { record: this.record(id)!, outcome: 'activated' };
  }

  /**
   * A redeploy of a bundle already on disk adds no history row: the new record is folded into
   * the existing one (see DeploymentsData.merged). The active bundle stays active; a kept one is
   * switched to, like a rollback; a config bundle applied before leaves the operator's choice.
   * Returns the record that answers for the deployment, or null when the bundle must be installed.
   */
  private async reuseVersionOnDisk(record: DeploymentRecord, sha256: string): Promise<Deployed | null> {
    const folded = this.deployments.redeployTarget(record, sha256, (id) => this.versions.has(id));
    if (!folded) return null;
    await this.deployments.foldRedeploy(record, sha256, folded, this.now());
    if (folded.outcome === 'reactivated') this.publish();
    const target = this.record(folded.targetId)!;
    this.deps.logger.info(
      { deploymentId: target.id, site: this.deps.site, source: record.source },
      `redeploy of version ${target.version}: ${folded.detail}`,
    );
    return { record: target, outcome: folded.outcome };
  }

  /** Points the live site at the active version, or at `incoming` (about to be), with older ones as asset fallbacks. */
  private publish(incoming: SiteVersion | null = null): void {
    const active = this.deployments.active();
    const current = (active && this.versions.get(active.id)) ?? null;
    const kept = this.deployments
      .kept()
      .map((d) => this.versions.get(d.id))
      .filter((v): v is SiteVersion => v !== undefined);
    if (incoming) this.live.switchTo(incoming, current ? [current, ...kept] : kept);
    else this.live.switchTo(current, kept);
  }

  /** Queues VariantSettler's run when a version has unsettled files; like pruning, it does not make the deployer busy. */
  private settleVariants(): void {
    if (!this.variants.wanted()) return;
    void this.queue.runAside(() => this.variants.run());
  }

  /** A deployment is queued or running (one that is live and only pruning does not count; see DeployQueue). */
  private busy(): boolean {
    return this.queue.busy();
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
