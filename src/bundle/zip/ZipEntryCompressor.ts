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
  private readonly pending = new Map<number, Pending>();
  /** Requests not yet posted: they leave together once the current task (a batch of pages) ends. */
  private outbox: CompressBatch = [];
  private outboxTransfers: ArrayBuffer[] = [];

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
    // A page's text is encoded here into a buffer nobody else holds, which can then be moved to
    // the thread (posting the string would copy it twice, once out and once in). Caller-owned
    // bytes are copied: moving them would empty the caller's buffer.
    const bytes = typeof content === 'string' ? utf8.encode(content) : content;
    return new Promise((resolve, reject) => {
      // The original stays here: if the thread fails, this thread prepares the file from it.
      this.pending.set(id, { rel, content, resolve, reject });
      if (this.pending.size === 1) this.worker!.ref();
      if (this.outbox.length === 0) queueMicrotask(() => this.post());
      this.outbox.push({ id, rel, content: bytes });
      if (bytes !== content) this.outboxTransfers.push(bytes.buffer as ArrayBuffer);
    });
  }

  private post(): void {
    const batch = this.outbox;
    const transfers = this.outboxTransfers;
    this.outbox = [];
    this.outboxTransfers = [];
    // A thread that failed meanwhile has handed every pending file back already.
    if (!this.worker || batch.length === 0) return;
    try {
      this.worker.postMessage(batch, transfers);
    } catch {
      // Nothing may be left waiting on a message that never left: this thread takes over.
      this.fallBack();
    }
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
    this.outbox = [];
    this.outboxTransfers = [];
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
