import { join } from 'node:path';
import { JsonStore } from '../../platform/store/JsonStore.js';
import type { GitSourceState, UpdateCommit, UpdateSource, UpdateState, UpdateStatusRecord } from './UpdateStatusRecord.js';

/** The document `sources.json`. */
interface SourcesData {
  schemaVersion: number;
  sites: GitSourceState[];
  updates: UpdateStatusRecord[];
}

const SCHEMA_VERSION = 1;
/** Update records kept (oldest dropped first): a push-happy repository must not grow the file forever. */
const MAX_UPDATES = 500;
/** Log lines kept per update. */
const MAX_LOG_LINES = 200;

/** Git sources' state and their update records; every transition is durable before it resolves. */
export class SourceStateRepository {
  private constructor(private readonly store: JsonStore<SourcesData>) {}

  /** Opens (or creates) `<dataDir>/sources.json`. */
  static async open(dataDir: string): Promise<SourceStateRepository> {
    const store = await JsonStore.open<SourcesData>({
      path: join(dataDir, 'sources.json'),
      schemaVersion: SCHEMA_VERSION,
      defaults: () => ({ schemaVersion: SCHEMA_VERSION, sites: [], updates: [] }),
    });
    return new SourceStateRepository(store);
  }

  /** The state of `domain`'s source (a blank one before its first fetch). */
  site(domain: string): GitSourceState {
    return (
      this.store.data.sites.find((s) => s.domain === domain) ?? {
        domain,
        liveSha: null,
        fetchedSha: null,
        lastFetchAt: null,
        lastError: null,
      }
    );
  }

  /** Every git source's state. */
  sites(): GitSourceState[] {
    return this.store.data.sites;
  }

  /** Merges `change` into `domain`'s state. */
  async recordSite(domain: string, change: Partial<Omit<GitSourceState, 'domain'>>): Promise<void> {
    await this.store.update((d) => {
      const next = { ...this.site(domain), ...change };
      d.sites = [...d.sites.filter((s) => s.domain !== domain), next];
    });
  }

  /** The update `id` of `projectId`; another project's is as good as absent. */
  findUpdate(projectId: string, id: string): UpdateStatusRecord | undefined {
    return this.store.data.updates.find((u) => u.id === id && u.projectId === projectId);
  }

  /** Updates of `projectId`'s sites, newest first, at most `limit`. */
  updatesOfProject(projectId: string, limit: number): UpdateStatusRecord[] {
    return this.store.data.updates
      .filter((u) => u.projectId === projectId)
      .slice(-limit)
      .reverse();
  }

  /** Updates of `domain`, newest first. */
  updatesOf(domain: string): UpdateStatusRecord[] {
    return this.store.data.updates.filter((u) => u.domain === domain).reverse();
  }

  /** Records a queued update. */
  async queue(update: { id: string; projectId: string; domain: string; source: UpdateSource; at: string }): Promise<UpdateStatusRecord> {
    const record: UpdateStatusRecord = {
      id: update.id,
      projectId: update.projectId,
      domain: update.domain,
      createdAt: update.at,
      endedAt: null,
      status: 'queued',
      summary: 'Waiting to fetch',
      logs: [],
      source: update.source,
      commit: null,
      exportJobId: null,
    };
    await this.store.update((d) => {
      d.updates.push(record);
      if (d.updates.length > MAX_UPDATES) d.updates.splice(0, d.updates.length - MAX_UPDATES);
    });
    return record;
  }

  /** Moves an update on: its state, a log line, and whatever else is known now. */
  async progress(
    id: string,
    change: { status?: UpdateState; summary?: string; log?: string; commit?: UpdateCommit; exportJobId?: string; endedAt?: string },
  ): Promise<void> {
    await this.store.update((d) => {
      const u = d.updates.find((x) => x.id === id);
      if (!u) return;
      if (change.status) u.status = change.status;
      if (change.summary) u.summary = change.summary;
      if (change.commit) u.commit = change.commit;
      if (change.exportJobId) u.exportJobId = change.exportJobId;
      if (change.endedAt) u.endedAt = change.endedAt;
      if (change.log && u.logs.length < MAX_LOG_LINES) u.logs.push(change.log);
    });
  }

  /** Marks updates a restart cut short as failed (they would otherwise stay in progress forever). */
  async failInterrupted(at: string): Promise<number> {
    return this.store.update((d) => {
      const open = d.updates.filter((u) => u.status === 'queued' || u.status === 'in_progress');
      for (const u of open) Object.assign(u, { status: 'failure', summary: 'Interrupted by a restart', endedAt: at });
      return open.length;
    });
  }

  /** Resolves once every change is on disk. */
  flush(): Promise<void> {
    return this.store.flush();
  }
}
