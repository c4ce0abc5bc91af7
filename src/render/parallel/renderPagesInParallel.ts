import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../platform/threads/startThread.js';
import type { BuildReport } from '../report/BuildReport.js';
import type { PageRenderer } from './createPageRenderer.js';
import type { PageResult } from './PageResult.js';
import type { FromPageThread, PageWorkerData, ToPageThread } from './workerProtocol.js';

/** Pages handed to a worker at a time: small enough to balance the load, large enough to keep it busy. */
const CHUNK = 12;
/** Heap cap of one page worker thread (MiB). */
const WORKER_HEAP_MB = 256;
/** How long the main thread, its share done, waits for a worker to start before taking every page left. */
const START_WAIT_MS = 30_000;
/**
 * Pages the main thread renders between turns of its event loop. Rendering a page is synchronous;
 * the turn lets abort requests, progress messages and finished zip entries through.
 */
const MAIN_BATCH = 6;

/**
 * Pages to render below which no thread is started: loading the renderer and the site in a
 * thread costs more than it saves (an incremental export that renders a few changed pages).
 */
const MIN_PAGES_FOR_THREADS = 48;

/** How many of the `wanted` extra threads can be used: never more than spare cores or chunks of pages, none for a few pages. */
export function workerCountFor(pageCount: number, wanted: number): number {
  if (pageCount < MIN_PAGES_FOR_THREADS) return 0;
  return Math.max(0, Math.min(wanted, availableParallelism() - 1, Math.ceil(pageCount / CHUNK)));
}

/**
 * Renders the pages at `positions` on the main thread and on worker threads at once. Pages are handed
 * out on demand. Until every worker has started (or failed), the main thread renders no more
 * than an equal share: otherwise a fast main thread can finish a site before a worker has loaded,
 * and the worker's start-up was paid for nothing. A worker that fails gives its unfinished pages
 * back to the main thread: parallelism is an optimisation, never a reason for an export to fail.
 * Resolves with the workers' report parts and their page count.
 */
// size: starts, feeds and collects the worker threads; their message handlers share the queue and the fallback to the main thread
export async function renderPagesInParallel(options: {
  /** The pages to render (positions in the site's page order); an incremental export leaves out those it reused. */
  positions: readonly number[];
  workers: number;
  workerData: PageWorkerData;
  renderLocal: PageRenderer;
  onResult: (result: PageResult) => void;
  onWorkerFailure: (message: string) => void;
  signal?: AbortSignal;
}): Promise<{ reports: BuildReport[]; pagesByWorkers: number }> {
  const queue = [...options.positions];
  let failure: unknown = null;
  let pagesByWorkers = 0;
  const take = (n: number) => queue.splice(0, n);
  const accept = (result: PageResult) => {
    if (failure !== null) return;
    try {
      options.onResult(result);
    } catch (err) {
      failure = err;
    }
  };

  const workers: Worker[] = [];
  /** One per worker: settles once it is ready for pages or has failed. */
  const starts: Promise<void>[] = [];
  const finished = Array.from({ length: options.workers }, () => {
    // A worker that hits its heap cap dies and hands its pages back; the export carries on.
    const worker = startThread(new URL('./runPageWorker.js', import.meta.url), options.workerData, {
      maxOldGenerationSizeMb: WORKER_HEAP_MB,
    });
    workers.push(worker);
    const outstanding = new Set<number>();
    let markStarted: () => void = () => {};
    starts.push(new Promise<void>((resolve) => (markStarted = resolve)));
    return new Promise<BuildReport | null>((resolve) => {
      let settled = false;
      const giveBack = (message: string) => {
        markStarted();
        if (settled) return;
        settled = true;
        queue.push(...outstanding);
        options.onWorkerFailure(message);
        void worker.terminate();
        resolve(null);
      };
      const handOut = () => {
        const positions = failure === null && !options.signal?.aborted ? take(CHUNK) : [];
        for (const p of positions) outstanding.add(p);
        worker.postMessage((positions.length ? { type: 'render', positions } : { type: 'finish' }) satisfies ToPageThread);
      };
      worker.on('message', (message: FromPageThread) => {
        if (message.type === 'ready' || message.type === 'idle') {
          markStarted();
          handOut();
        } else if (message.type === 'page') {
          outstanding.delete(message.result.position);
          pagesByWorkers++;
          accept(message.result);
        } else if (message.type === 'report') {
          settled = true;
          resolve(message.report);
        } else giveBack(message.message);
      });
      worker.on('error', (err) => giveBack(err.message));
      worker.on('exit', (code) => giveBack(`page worker exited (${code})`));
    });
  });

  try {
    // The main thread works too, and picks up pages any failed worker gave back.
    const fairShare = Math.ceil(options.positions.length / (options.workers + 1));
    const mainLane = async (limit: number) => {
      for (let taken = 0; taken < limit; ) {
        if (failure !== null) return;
        if (options.signal?.aborted) throw new Error('export aborted');
        const batch = take(Math.min(MAIN_BATCH, limit - taken));
        taken += batch.length;
        if (batch.length === 0) return;
        for (const position of batch) accept(options.renderLocal(position));
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await mainLane(fairShare);
    let waitTimer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(starts), new Promise<void>((resolve) => (waitTimer = setTimeout(resolve, START_WAIT_MS)))]);
    clearTimeout(waitTimer);
    await mainLane(Infinity);
    const reports = await Promise.all(finished);
    await mainLane(Infinity);
    if (failure !== null) throw failure;
    if (options.signal?.aborted) throw new Error('export aborted');
    return { reports: reports.filter((r): r is BuildReport => r !== null), pagesByWorkers };
  } finally {
    for (const worker of workers) void worker.terminate();
  }
}
