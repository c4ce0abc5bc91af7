import type { Worker } from 'node:worker_threads';
import { startThread } from '../threads/startThread.js';
import { prepareZipEntry, type EntryContent, type ZipEntryData } from './prepareZipEntry.js';

/** A file for the compression thread. */
export interface CompressRequest {
  id: number;
  rel: string;
  content: EntryContent;
}
/** Its answer. */
export type CompressResponse = { id: number; entry: ZipEntryData } | { id: number; error: string };

/**
 * Files waiting for the thread at most. Beyond this the caller prepares entries itself: when the
 * thread falls behind (the other core is busy), the main thread helps instead of queueing pages
 * without bound.
 */
const MAX_IN_FLIGHT = 64;

interface Pending {
  rel: string;
  content: EntryContent;
  resolve: (entry: ZipEntryData) => void;
  reject: (err: Error) => void;
}

/**
 * Prepares zip entries (deflate, SHA-256, CRC-32) on a thread of their own, so on a machine with
 * a spare core that work overlaps with rendering instead of adding to it. Deflating was the
 * largest single cost of a render on the main thread (about a fifth of a synthetic export).
 * A thread that fails or can't start is not an error: the remaining files are prepared on the
 * calling thread, so the bundle is the same either way.
 */
export class ZipEntryCompressor {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(useThread: boolean) {
    if (!useThread) return;
    try {
      const worker = startThread(new URL('./zipEntryThread.js', import.meta.url));
      worker.on('message', (response: CompressResponse) => this.settle(response));
      worker.on('error', () => this.fallBack());
      worker.on('exit', () => this.fallBack());
      // Only pending work keeps the process alive (see `prepare`).
      worker.unref();
      this.worker = worker;
    } catch {
      this.worker = null;
    }
  }

  /** The entry for `content` at `rel`; settles in the order files were given for the same thread. */
  prepare(rel: string, content: EntryContent): Promise<ZipEntryData> {
    if (!this.worker || this.pending.size >= MAX_IN_FLIGHT) return Promise.resolve().then(() => prepareZipEntry(rel, content));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { rel, content, resolve, reject });
      if (this.pending.size === 1) this.worker!.ref();
      this.worker!.postMessage({ id, rel, content } satisfies CompressRequest);
    });
  }

  /** Stops the thread; anything still pending is prepared here. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.fallBack();
    await worker?.terminate();
  }

  private settle(response: CompressResponse): void {
    const job = this.pending.get(response.id);
    if (!job) return;
    this.pending.delete(response.id);
    if (this.pending.size === 0) this.worker?.unref();
    if ('entry' in response) job.resolve(response.entry);
    else job.reject(new Error(response.error));
  }

  /** The thread is gone (or closing): prepare whatever it had not answered on this thread. */
  private fallBack(): void {
    if (!this.worker) return;
    const worker = this.worker;
    this.worker = null;
    worker.removeAllListeners('message');
    void worker.terminate();
    for (const [id, job] of this.pending) {
      this.pending.delete(id);
      try {
        job.resolve(prepareZipEntry(job.rel, job.content));
      } catch (err) {
        job.reject(err as Error);
      }
    }
  }
}
