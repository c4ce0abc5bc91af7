import { JsonStore } from '../../platform/store/JsonStore.js';
import type { DeploymentEvent, DeploymentRecord } from './DeploymentRecord.js';
import { DEPLOYMENTS_SCHEMA_VERSION, byActivationDesc, pushEvent, trimRecords, type DeploymentsData } from './deploymentStore.js';
import { applyRedeploy, findRedeployTarget, type FoldedRedeploy } from './foldRedeploy.js';

/** What an installed bundle fills in on its deployment record when it goes live. */
export type InstalledDeployment = Pick<
  DeploymentRecord,
  'version' | 'domain' | 'jobId' | 'bundleSha256' | 'bundleBytes' | 'fileCount' | 'extractedBytes' | 'failedPages'
>;

/** Why a deployment was refused, with what was learnt of its bundle before. */
export interface RefusedDeployment {
  reason: string;
  bundleSha256: string | null;
  bundleBytes: number | null;
}

/** A site's deployments as `GET /v1/deployments` shows them (before the presenter). */
export interface DeploymentStatus {
  active: DeploymentRecord | null;
  kept: DeploymentRecord[];
  running: DeploymentRecord | null;
  /** The newest records. */
  history: DeploymentRecord[];
  /** The newest history events, newest first. */
  events: DeploymentEvent[];
  lastError: DeploymentsData['lastError'];
}

/** How many records and events the status shows. */
const STATUS_ROWS = 20;

/**
 * One site's deployments (`deployments.json`): the records, the active pointer, the history
 * events and the last error. Every transition of a record is a method here, each one durable
 * write, so the deployer says what happened and never edits the document itself.
 */
export class DeploymentRepository {
  private constructor(private readonly store: JsonStore<DeploymentsData>) {}

  /** Opens (or creates) a site's state file (`deployments.json` in the data directory for the default site). */
  static async open(path: string): Promise<DeploymentRepository> {
    const store = await JsonStore.open<DeploymentsData>({
      path,
      schemaVersion: DEPLOYMENTS_SCHEMA_VERSION,
      defaults: () => ({
        schemaVersion: DEPLOYMENTS_SCHEMA_VERSION,
        activeId: null,
        deployments: [],
        events: [],
        lastError: null,
        configBundleSha256: null,
        merged: {},
      }),
    });
    return new DeploymentRepository(store);
  }

  /** One record by id (a redeploy folded into an existing version answers with that version's record). */
  record(id: string): DeploymentRecord | undefined {
    const data = this.store.data;
    const wanted = data.merged[id] ?? id;
    return data.deployments.find((d) => d.id === wanted);
  }

  /** The live version's record, or null. */
  active(): DeploymentRecord | null {
    const data = this.store.data;
    return data.deployments.find((d) => d.id === data.activeId) ?? null;
  }

  /** Versions on disk but not live, most recently activated first. */
  kept(): DeploymentRecord[] {
    return this.store.data.deployments.filter((d) => d.status === 'kept').sort(byActivationDesc);
  }

  /** Versions on disk (active and kept), in record order. */
  onDisk(): DeploymentRecord[] {
    return this.store.data.deployments.filter((d) => d.status === 'active' || d.status === 'kept');
  }

  /** The deployment running now, if any. */
  running(): DeploymentRecord | null {
    return this.store.data.deployments.find((d) => d.status === 'running') ?? null;
  }

  /** The state shown by `GET /v1/deployments`. */
  status(): DeploymentStatus {
    const data = this.store.data;
    return {
      active: this.active(),
      kept: this.kept(),
      running: this.running(),
      history: data.deployments.slice(0, STATUS_ROWS),
      events: data.events.slice(-STATUS_ROWS).reverse(),
      lastError: data.lastError,
    };
  }

  /** The last failure since the last successful activation (drives `degraded`). */
  lastError(): DeploymentsData['lastError'] {
    return this.store.data.lastError;
  }

  /** Whether a delivered bundle is one already on disk (see foldRedeploy); null when it must be installed. */
  redeployTarget(record: DeploymentRecord, sha256: string, isLoaded: (id: string) => boolean): FoldedRedeploy | null {
    return findRedeployTarget(this.store.data, record, sha256, isLoaded);
  }

  /** Records a deployment that is about to run, newest first. */
  async insert(record: DeploymentRecord): Promise<void> {
    await this.store.update((d) => {
      d.deployments.unshift(record);
    });
  }

  /** Deployment `id` installed its bundle: it becomes the active version, the previous one kept. */
  async activate(id: string, installed: InstalledDeployment, at: string): Promise<void> {
    await this.store.update((d) => {
      for (const r of d.deployments) if (r.id === d.activeId) r.status = 'kept';
      const record = d.deployments.find((r) => r.id === id)!;
      Object.assign(record, { ...installed, status: 'active', finishedAt: at, activatedAt: at });
      d.activeId = id;
      d.lastError = null;
      if (record.origin === 'config') d.configBundleSha256 = installed.bundleSha256;
      pushEvent(d, { at, kind: 'activated', deploymentId: id, version: installed.version, detail: record.source });
    });
  }

  /** Deployment `id` delivered a bundle already on disk: folded into `folded.targetId` (see foldRedeploy). */
  async foldRedeploy(record: DeploymentRecord, sha256: string, folded: FoldedRedeploy, at: string): Promise<void> {
    await this.store.update((d) => applyRedeploy(d, record, sha256, folded, at));
  }

  /** Kept version `id` becomes active again; `detail` says from which version. */
  async rollBackTo(id: string, at: string, detail: string | null): Promise<void> {
    await this.store.update((d) => {
      let version: string | null = null;
      for (const r of d.deployments) {
        if (r.id === d.activeId) r.status = 'kept';
        if (r.id === id) {
          Object.assign(r, { status: 'active', activatedAt: at });
          version = r.version;
        }
      }
      d.activeId = id;
      d.lastError = null;
      pushEvent(d, { at, kind: 'rolled_back', deploymentId: id, version, detail });
    });
  }

  /** Deployment `id` was refused: failed, and the site degraded until the next success. */
  async fail(id: string, refused: RefusedDeployment, at: string): Promise<void> {
    await this.store.update((d) => {
      const record = d.deployments.find((r) => r.id === id)!;
      Object.assign(record, {
        status: 'failed',
        error: refused.reason,
        finishedAt: at,
        bundleSha256: refused.bundleSha256,
        bundleBytes: refused.bundleBytes,
      });
      d.lastError = { at, source: record.source, reason: refused.reason };
      pushEvent(d, { at, kind: 'refused', deploymentId: id, version: null, detail: refused.reason });
      trimRecords(d);
    });
  }

  /** Kept versions `ids` were pruned: removed, with one history event each. */
  async markRemoved(ids: ReadonlySet<string>, at: string): Promise<void> {
    await this.store.update((d) => {
      for (const r of d.deployments) {
        if (!ids.has(r.id)) continue;
        r.status = 'removed';
        pushEvent(d, { at, kind: 'removed', deploymentId: r.id, version: r.version, detail: 'older than the kept versions' });
      }
      trimRecords(d);
    });
  }

  /**
   * Startup: deployments a crash left `running` failed, and versions whose files could not be
   * loaded (`broken`) removed; a broken active version leaves no version active. One write, and
   * none when there is nothing to change.
   */
  async recoverAfterRestart(at: string, broken: { id: string; reason: string }[]): Promise<void> {
    if (!this.running() && broken.length === 0) return;
    await this.store.update((d) => {
      for (const r of d.deployments) {
        if (r.status === 'running') Object.assign(r, { status: 'failed', error: 'interrupted by a restart', finishedAt: at });
        const bad = broken.find((b) => b.id === r.id);
        if (!bad) continue;
        if (d.activeId === r.id) {
          d.activeId = null;
          d.lastError = { at, source: r.source, reason: bad.reason };
        }
        Object.assign(r, { status: 'removed', error: bad.reason });
      }
    });
  }

  /** Writes pending changes to disk (shutdown). */
  flush(): Promise<void> {
    return this.store.flush();
  }
}
