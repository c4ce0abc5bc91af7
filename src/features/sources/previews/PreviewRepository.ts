import { join } from 'node:path';
import { JsonStore } from '../../../platform/store/JsonStore.js';
import type { PreviewRecord } from './PreviewRecord.js';

/** The document `previews.json`. */
interface PreviewsData {
  schemaVersion: number;
  previews: PreviewRecord[];
}

const SCHEMA_VERSION = 1;

/** The previews of git branches; every transition is durable before it resolves. */
export class PreviewRepository {
  private constructor(private readonly store: JsonStore<PreviewsData>) {}

  /** Opens (or creates) `<dataDir>/previews.json`. */
  static async open(dataDir: string): Promise<PreviewRepository> {
    const store = await JsonStore.open<PreviewsData>({
      path: join(dataDir, 'previews.json'),
      schemaVersion: SCHEMA_VERSION,
      defaults: () => ({ schemaVersion: SCHEMA_VERSION, previews: [] }),
    });
    return new PreviewRepository(store);
  }

  /** Every preview, oldest first. */
  all(): readonly PreviewRecord[] {
    return this.store.data.previews;
  }

  /** The preview of `branch` of `domain`, if there is one. */
  ofBranch(domain: string, branch: string): PreviewRecord | undefined {
    return this.store.data.previews.find((p) => p.domain === domain && p.branch === branch);
  }

  /** The preview served under `slug`. */
  bySlug(slug: string): PreviewRecord | undefined {
    return this.store.data.previews.find((p) => p.slug === slug);
  }

  /** The preview `id`. */
  byId(id: string): PreviewRecord | undefined {
    return this.store.data.previews.find((p) => p.id === id);
  }

  /** Records a new preview. */
  async insert(record: PreviewRecord): Promise<void> {
    await this.store.update((d) => {
      d.previews.push(record);
    });
  }

  /** A redeploy was asked for: its status, and a later expiry. */
  async requested(id: string, change: { statusId: string; expiresAt: string; agentJobId?: string | null }): Promise<void> {
    await this.change(id, (p) => {
      p.statusId = change.statusId;
      p.expiresAt = change.expiresAt;
      if (change.agentJobId) p.agentJobId = change.agentJobId;
    });
  }

  /** A build went live: its commit and version. */
  async deployed(id: string, change: { sha: string; versionName: string; at: string }): Promise<void> {
    await this.change(id, (p) => {
      Object.assign(p, { state: 'ready', sha: change.sha, versionName: change.versionName, deployedAt: change.at, lastError: null });
    });
  }

  /** A build failed; a version already served stays (and the preview stays `ready`). */
  async failed(id: string, reason: string): Promise<void> {
    await this.change(id, (p) => {
      p.lastError = reason;
      if (p.state === 'building') p.state = 'failed';
    });
  }

  /** Deletes the preview `id`'s record. */
  async remove(id: string): Promise<void> {
    await this.store.update((d) => {
      d.previews = d.previews.filter((p) => p.id !== id);
    });
  }

  /** Resolves once every change is on disk. */
  flush(): Promise<void> {
    return this.store.flush();
  }

  private async change(id: string, edit: (p: PreviewRecord) => void): Promise<void> {
    await this.store.update((d) => {
      const found = d.previews.find((p) => p.id === id);
      if (found) edit(found);
    });
  }
}
