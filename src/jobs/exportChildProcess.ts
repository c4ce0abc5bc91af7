import { fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExportTaskInput, ExportTaskResult, FromWorker, ToWorker } from './exportWorkerProtocol.js';

/** Progress reported by the worker while a job runs. */
export type ExportProgress = Extract<FromWorker, { type: 'rendering' | 'packing' }>;

/** How a worker run is supervised. */
export interface ExportChildOptions {
  /** The whole run (render + pack) is killed after this long. */
  timeoutMs: number;
  /** V8 heap cap of the child in MiB (bounds peak memory; the GC works harder instead). */
  heapMb?: number;
  onProgress?: (progress: ExportProgress) => void;
  /** Called once the process exists (benchmarks sample its memory). */
  onSpawn?: (pid: number) => void;
  /** Aborting asks the worker to stop, then kills it after `abortGraceMs`. */
  signal?: AbortSignal;
  abortGraceMs?: number;
}

/** A failed run; `detail` holds the tail of the worker's stderr for the log, never for clients. */
export class ExportRunError extends Error {
  constructor(message: string, readonly detail = '') {
    super(message);
    this.name = 'ExportRunError';
  }
}

/**
 * Scheduling niceness of the worker. An export is background work; admin scripts and readers
 * talking to the API must not wait behind it when the cores are busy. On an idle machine the
 * worker still gets all the CPU it can use.
 */
export const WORKER_NICENESS = 10;

/** How long a finished run waits for its process to be reaped before settling anyway. */
const CLOSE_WAIT_MS = 3000;

// The worker module sits beside this one with the same extension: `.ts` under the tsx loader
// (dev, tests), `.js` once compiled. execArgv carries the loader over to the child; when tsx
// was registered through its API instead (bin/enclave.js in a checkout), execArgv doesn't
// show it, so the loader is named explicitly, by absolute URL so the cwd doesn't matter.
const here = fileURLToPath(import.meta.url);
const workerPath = fileURLToPath(new URL(`./exportWorker${extname(here)}`, import.meta.url));
const workerExecArgv = [
  ...process.execArgv,
  ...(extname(here) === '.ts' && !process.execArgv.some((arg) => arg.includes('tsx')) ? ['--import', import.meta.resolve('tsx')] : []),
  // Lets the worker collect the renderer's garbage before building the zip.
  '--expose-gc',
];

/**
 * Runs one export in a forked worker process and resolves with what it produced. The child can
 * crash, run out of memory or hang without harming the server: every way it can end settles
 * the promise exactly once, and the process is killed on timeout or abort.
 */
export function runExportInChild(input: ExportTaskInput, options: ExportChildOptions): Promise<ExportTaskResult> {
  return new Promise((resolve, reject) => {
    const execArgv = options.heapMb ? [...workerExecArgv, `--max-old-space-size=${options.heapMb}`] : workerExecArgv;
    const child = fork(workerPath, [], { execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let closed = false;
    const whenClosed: (() => void)[] = [];
    // Settles once the process is really gone (reaped), so a caller that stops the queue can
    // rely on no worker being left; bounded in case the close event never comes.
    // A worker that reported its outcome exits by itself and gets a moment to do so; one that
    // timed out or ignored an abort is killed at once.
    const finish = (err: Error | null, result?: ExportTaskResult, reported = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      const kill = () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      };
      if (!reported) kill();
      const settle = () => (err ? reject(err) : resolve(result!));
      if (closed) return settle();
      const bound = setTimeout(() => {
        kill();
        settle();
      }, CLOSE_WAIT_MS);
      whenClosed.push(() => {
        clearTimeout(bound);
        settle();
      });
    };
    const timeout = setTimeout(() => finish(new ExportRunError(`export timed out after ${Math.round(options.timeoutMs / 1000)} s`)), options.timeoutMs);
    const onAbort = () => {
      if (child.connected) child.send({ type: 'abort' } satisfies ToWorker);
      killTimer = setTimeout(() => finish(new ExportRunError('export aborted')), options.abortGraceMs ?? 2000);
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('spawn', () => {
      try {
        setPriority(child.pid!, WORKER_NICENESS);
      } catch {
        // Lowering a child's priority is always allowed on Linux; elsewhere it is only a nicety.
      }
      options.onSpawn?.(child.pid!);
    });
    child.on('error', (err) => finish(new ExportRunError(`cannot start the export worker: ${err.message}`)));
    child.on('message', (message: FromWorker) => {
      switch (message.type) {
        case 'ready':
          if (!options.signal?.aborted) child.send({ type: 'run', input } satisfies ToWorker);
          break;
        case 'rendering':
        case 'packing':
          options.onProgress?.(message);
          break;
        case 'done':
          finish(null, message.result, true);
          break;
        case 'failed':
          finish(new ExportRunError(message.error, stderr), undefined, true);
          break;
      }
    });
    // 'close' (not 'exit'): it comes after the IPC channel has delivered the worker's last message.
    child.on('close', (code, signal) => {
      closed = true;
      for (const done of whenClosed.splice(0)) done();
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      const oom = /heap out of memory/i.test(stderr) ? ' (out of memory)' : '';
      finish(new ExportRunError(options.signal?.aborted ? 'export aborted' : `export worker stopped unexpectedly (${how})${oom}`, stderr));
    });
  });
}
