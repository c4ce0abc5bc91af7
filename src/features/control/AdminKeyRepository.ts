import type { JsonStore } from '../../platform/store/JsonStore.js';
import type { AdminKeyRecord, ControlData } from './controlDocument.js';

/** How often a key's `lastUsedAt` is persisted at most: a write per request would cost more than the request. */
const LAST_USED_PERSIST_MS = 60_000;

/** Admin key records, indexed by hash for the lookup on every request. */
export class AdminKeyRepository {
  private byHash = new Map<string, AdminKeyRecord>();
  /** Keys that live only as long as this process (the local CLI key); never written to the store. */
  private readonly sessionKeys = new Map<string, AdminKeyRecord>();
  private readonly firstUseListeners = new Map<string, () => void>();

  constructor(private readonly store: JsonStore<ControlData>) {
    this.reindex();
    // A refused write swaps in fresh records from disk: the index must point at those.
    store.onRestore(() => this.reindex());
  }

  /** The key record stored under `hash`, or undefined. */
  findByHash(hash: string): AdminKeyRecord | undefined {
    return this.byHash.get(hash) ?? this.sessionKeys.get(hash);
  }

  /** Accepts a key for this process's lifetime only; it is not listed and not stored. */
  addSessionKey(record: AdminKeyRecord): void {
    this.sessionKeys.set(record.hash, record);
  }

  /** The key with `id`, or undefined. */
  find(id: string): AdminKeyRecord | undefined {
    return this.store.data.adminKeys.find((k) => k.id === id);
  }

  /** Keys of one project, or all keys. */
  list(projectId?: string): AdminKeyRecord[] {
    return this.store.data.adminKeys.filter((k) => !projectId || k.projectId === projectId);
  }

  /** Stores a new key durably. */
  async insert(record: AdminKeyRecord): Promise<void> {
    await this.store.update((d) => {
      d.adminKeys.push(record);
    });
    this.reindex();
  }

  /** Marks a key revoked durably; false when there is no such key. */
  async revoke(id: string, at: Date): Promise<boolean> {
    const found = Boolean(this.find(id));
    await this.revokeAll([id], at);
    return found;
  }

  /**
   * Marks keys revoked durably in one write. `check` sees every stored key first, in the same
   * synchronous step as the change, and refuses the whole revocation by throwing.
   */
  async revokeAll(ids: string[], at: Date, check?: (keys: readonly AdminKeyRecord[]) => void): Promise<void> {
    await this.store.update((d) => {
      check?.(d.adminKeys);
      for (const key of d.adminKeys) if (ids.includes(key.id) && !key.revokedAt) key.revokedAt = at.toISOString();
    });
    this.reindex();
  }

  /** Calls `listener` once, the first time key `id` authenticates a request. */
  onFirstUse(id: string, listener: () => void): void {
    this.firstUseListeners.set(id, listener);
  }

  /** Records use of a key; persisted at most once a minute per key. */
  touch(record: AdminKeyRecord, at: Date): void {
    const listener = this.firstUseListeners.get(record.id);
    if (listener) {
      this.firstUseListeners.delete(record.id);
      listener();
    }
    const previous = record.lastUsedAt ? Date.parse(record.lastUsedAt) : 0;
    const due = Math.abs(at.getTime() - previous) >= LAST_USED_PERSIST_MS;
    record.lastUsedAt = at.toISOString();
    if (due && !this.sessionKeys.has(record.hash)) this.store.update(() => {}).catch(() => {}); // best effort: usage time is advisory
  }

  private reindex(): void {
    this.byHash = new Map(this.store.data.adminKeys.map((k) => [k.hash, k]));
  }
}
