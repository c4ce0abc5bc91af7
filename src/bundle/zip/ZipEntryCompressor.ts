import type { Worker } from 'node:worker_threads';
import { startThread } from '../../platform/threads/startThread.js';
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
 * Files travel in batches, both ways: with one file per message, posting them cost the main
 * thread several times as much.
 */
export type CompressBatch = CompressRequest[];
export type ResponseBatch = CompressResponse[];

/**
 * Files waiting for the thread at most. Beyond this the caller prepares entries itself: when the
 * thread falls behind (the other core is busy), the main thread helps instead of queueing pages
 * without bound. The thread runs at the lowest priority, so it falls behind whenever the other
 * core is busy for a while (a tokenizer thread at the start of an export): this leaves it room
 * to catch up later, for a few MB of queued pages.
 */
const MAX_IN_FLIGHT = 512;
/**
 * Files handed to the thread and not yet answered, at most. The rest wait here, so that when the
 * caller runs out of other work (`drain`: the render is done and the zip waits for its last
 * entries) it can take its share of them and both cores deflate. Posted all at once, they were
 * the thread's alone, and a re-assembly of many pages ended with one core deflating.
 */
const POSTED_MAX = 128;
/** Files the caller prepares between turns of the event loop while it drains (the thread's answers get in between). */
const DRAIN_SLICE = 8;

/**
 * The thread's heap only ever holds messages in transit (page text reaches it as bytes in
 * buffers of their own, moved rather than copied), so a small heap is all it gets. What the
 * thread did cost in memory was dead buffers outside its heap: see zipEntryThread.
 */
const THREAD_LIMITS = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 };

const utf8 = new TextEncoder();

interface Pending {
  rel: string;
  content: EntryContent;
  resolve: (entry: ZipEntryData) => void;
  reject: (err: Error) => void;
}

/**
 * Prepares zip entries (deflate, SHA-256, CRC-32) on a thread of their own, so on a machine with
 * a spare core that work overlaps with rendering instead of adding to it. Deflating was the
 * largest single cost of a render on the main thread.
 * A thread that fails or can't start is not an error: the remaining files are prepared on the
 * calling thread, so the bundle is the same either way.
 */
export class ZipEntryCompressor {
  private worker: Worker | null = null;
  private nextId = 0;
  /** Every file asked for and not yet prepared, posted or not. */
  private readonly pending = new Map<number, Pending>();
  /** Files not yet posted, oldest first: they leave together once the current task (a batch of pages) ends. */
  private waiting: number[] = [];
  private posted = 0;
  private postQueued = false;

  constructor(useThread: boolean) {
    if (!useThread) return;
    try {
      const worker = startThread(new URL('./zipEntryThread.js', import.meta.url), {}, THREAD_LIMITS);
      worker.on('message', (responses: ResponseBatch) => {
        for (const response of responses) this.settle(response);
      });
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
      // The original stays here: if the thread fails, this thread prepares the file from it.
      this.pending.set(id, { rel, content, resolve, reject });
      if (this.pending.size === 1) this.worker!.ref();
      this.waiting.push(id);
      this.queuePost();
    });
  }

  /**
   * Prepares files still waiting for the thread on this one, a few at a time from the newest
   * (the thread takes the oldest), letting the thread's answers in between, until none waits: for
   * when the caller has nothing else to do. The entries are the same whichever thread made them.
   */
  async drain(): Promise<void> {
    while (this.worker && this.waiting.length > 0) {
      for (let i = 0; i < DRAIN_SLICE && this.waiting.length > 0; i++) this.prepareHere(this.waiting.pop()!);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private queuePost(): void {
    if (this.postQueued) return;
    this.postQueued = true;
    queueMicrotask(() => {
      this.postQueued = false;
      this.post();
    });
  }

  private post(): void {
    // A thread that failed meanwhile has handed every pending file back already.
    if (!this.worker) return;
    const ids = this.waiting.splice(0, Math.max(0, POSTED_MAX - this.posted));
    if (ids.length === 0) return;
    const batch: CompressBatch = [];
    const transfers: ArrayBuffer[] = [];
    for (const id of ids) {
      const { rel, content } = this.pending.get(id)!;
      // A page's text is encoded here into a buffer nobody else holds, which can then be moved to
      // the thread (posting the string would copy it twice, once out and once in). Caller-owned
      // bytes are copied: moving them would empty the caller's buffer.
      const bytes = typeof content === 'string' ? utf8.encode(content) : content;
      batch.push({ id, rel, content: bytes });
      if (bytes !== content) transfers.push(bytes.buffer as ArrayBuffer);
    }
    this.posted += batch.length;
    try {
      this.worker.postMessage(batch, transfers);
    } catch {
      // Nothing may be left waiting on a message that never left: this thread takes over.
      this.fallBack();
    }
  }

  /** Prepares the pending file `id` on this thread. */
  private prepareHere(id: number): void {
    const job = this.pending.get(id);
    if (!job) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    try {
      job.resolve(prepareZipEntry(job.rel, job.content));
    } catch (err) {
      job.reject(err as Error);
    }
  }

  /** Stops the thread; anything still pending is prepared here. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.fallBack();
    await worker?.terminate();
  }

  private settle(response: CompressResponse): void {
    this.posted--;
    if (this.waiting.length > 0) this.queuePost();
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
    this.waiting = [];
    this.posted = 0;
    worker.removeAllListeners('message');
    void worker.terminate();
    for (const id of [...this.pending.keys()]) this.prepareHere(id);
  }
}
