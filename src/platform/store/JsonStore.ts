import { Low } from 'lowdb';
import { DurableJsonAdapter } from './DurableJsonAdapter.js';
import { StoreFileError } from './StoreFileError.js';

/** A data migration from one schema version to the next, applied in memory on load. */
export type Migration = (data: Record<string, unknown>) => void;

/** Options for one lowdb-backed JSON document. */
export interface JsonStoreOptions<T> {
  path: string;
  /** Content of a brand-new file. */
  defaults: () => T;
  /** Current schema version; `migrations[n]` upgrades version n to n+1. */
  schemaVersion: number;
  migrations?: Record<number, Migration>;
}

/**
 * One control-plane document in lowdb with durable, serialised writes. Changes made by
 * `update` calls that arrive while a write is in flight are committed together by the next
 * write (group commit), and every caller resolves only once its change is on disk.
 */
export class JsonStore<T extends { schemaVersion: number }> {
  private readonly db: Low<T>;
  private readonly adapter: DurableJsonAdapter<T>;
  private writing: Promise<void> | null = null;
  private pending: { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | null = null;
  private readonly restoreListeners: (() => void)[] = [];

  private constructor(private readonly options: JsonStoreOptions<T>) {
    this.adapter = new DurableJsonAdapter<T>(options.path);
    this.db = new Low<T>(this.adapter, options.defaults());
  }

  /** Opens (creating if absent) and migrates the document; a damaged file is refused. */
  static async open<T extends { schemaVersion: number }>(options: JsonStoreOptions<T>): Promise<JsonStore<T>> {
    const store = new JsonStore(options);
    await store.db.read();
    const data = store.db.data as unknown as Record<string, unknown>;
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new StoreFileError(options.path, 'not a JSON object');
    const fresh = options.defaults() as unknown as Record<string, unknown>;
    let version = typeof data.schemaVersion === 'number' ? data.schemaVersion : 0;
    if (version > options.schemaVersion) {
      throw new StoreFileError(options.path, `schema version ${version} is newer than this release supports (${options.schemaVersion})`);
    }
    const migrated = version < options.schemaVersion;
    while (version < options.schemaVersion) {
      options.migrations?.[version]?.(data);
      version += 1;
    }
    // Collections added by later releases appear empty rather than undefined.
    for (const [key, value] of Object.entries(fresh)) if (!(key in data)) data[key] = value;
    data.schemaVersion = options.schemaVersion;
    if (migrated) await store.db.write();
    return store;
  }

  /** The current data. Treat it as read-only; change it only inside `update`. */
  get data(): T {
    return this.db.data;
  }

  /**
   * Applies `mutate` now and resolves once the change is durable. A change that leaves the
   * document as it is on disk writes nothing, so boot-time recoveries that find nothing to
   * recover still succeed on a full volume.
   */
  async update<R>(mutate: (data: T) => R): Promise<R> {
    const result = mutate(this.db.data);
    if (!this.writing && this.adapter.matchesDisk(this.db.data)) return result;
    await this.scheduleWrite();
    return result;
  }

  /** Calls `listener` whenever a refused write put fresh records from disk in place of the data (indexes must be rebuilt). */
  onRestore(listener: () => void): void {
    this.restoreListeners.push(listener);
  }

  /** Resolves once every change made so far is on disk. */
  async flush(): Promise<void> {
    if (this.pending) await this.pending.promise;
    if (this.writing) await this.writing;
  }

  private scheduleWrite(): Promise<void> {
    if (!this.writing) {
      this.writing = this.runWrite();
      return this.writing;
    }
    if (!this.pending) {
      let resolve!: () => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.pending = { promise, resolve, reject };
    }
    return this.pending.promise;
  }

  private async runWrite(): Promise<void> {
    try {
      await this.db.write();
    } catch (err) {
      // The disk refused the write (full, read-only, …). Every change not yet durable fails
      // with it. Memory goes back to what is on disk synchronously, before any caller hears of
      // the refusal and before the write flag clears: a read, a retry or the next write issued
      // in reaction to the refusal must never see or persist the refused changes.
      this.db.data = this.adapter.lastDurable() ?? this.options.defaults();
      for (const listener of this.restoreListeners) listener();
      const waiting = this.pending;
      this.pending = null;
      this.writing = null;
      waiting?.reject(err);
      throw err;
    }
    const next = this.pending;
    this.pending = null;
    this.writing = null;
    if (next) {
      this.writing = this.runWrite();
      this.writing.then(next.resolve, next.reject);
    }
  }
}
