import { fork, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExportTaskInput, ExportTaskResult, FromExportWorker, ToExportWorker } from './exportWorkerProtocol.js';
import { workerNiceness } from './workerNiceness.js';
import type { WarmUpResult } from '../../../render/index.js';

/** Progress reported by the worker while a job runs. */
export type ExportProgress = Extract<FromExportWorker, { type: 'rendering' | 'packing' }>;

/** How a worker run is supervised. */
export interface ExportChildOptions {
  /** The whole run (render + pack) is killed after this long. */
  timeoutMs: number;
  /** V8 heap cap of the child in MiB (bounds peak memory; the GC works harder instead). */
  heapMb?: number;
  onProgress?: (progress: ExportProgress) => void;
  /** Called once the job has a process (benchmarks sample its memory; tests kill it). */
  onSpawn?: (pid: number) => void;
  /** A worker started ahead of time (see ExportWorkerProcess); a new one is forked if it is gone. */
  worker?: ExportWorkerProcess | null;
  /** Aborting asks the worker to stop, then kills it after `abortGraceMs`. */
  signal?: AbortSignal;
  abortGraceMs?: number;
}

/** A failed run; `detail` holds the tail of the worker's stderr for the log, never for clients. */
export class ExportRunError extends Error {
  constructor(
    message: string,
    readonly detail = '',
  ) {
    super(message);
    this.name = 'ExportRunError';
  }
}

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
];

/**
 * A forked export worker. It loads the renderer and says `ready`, then waits for one job. It can
 * be started before there is a job (the queue keeps one spare while idle), so a job doesn't wait
 * for Node to load and compile the renderer; it still runs exactly one job, so memory is
 * returned to the system after every export.
 */
export class ExportWorkerProcess {
  readonly child: ChildProcess;
  private isReady = false;
  private readonly onReady: (() => void)[] = [];
  private closedWith: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private readonly onClose: ((code: number | null, signal: NodeJS.Signals | null) => void)[] = [];
  /** The tail of the worker's stderr, for the log when it fails. */
  stderr = '';
  /** Grammars the worker loaded and compiled while waiting (see `warmUp`); null until it says. */
  warmed: WarmUpResult | null = null;

  constructor(heapMb?: number) {
    const execArgv = heapMb ? [...workerExecArgv, `--max-old-space-size=${heapMb}`] : workerExecArgv;
    this.child = fork(workerPath, [], { execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-4000)));
    // The process exists once fork returns with a pid (a failed start has none and emits 'error').
    if (this.child.pid !== undefined) {
      try {
        setPriority(this.child.pid, workerNiceness());
      } catch {
        // Lowering a child's priority is always allowed on Linux; elsewhere it is only a nicety.
      }
    }
    // Without a listener a failed fork would be an uncaught error; runs see it through `close`.
    this.child.on('error', () => {});
    this.child.on('message', (message: FromExportWorker) => {
      if (message.type === 'warmed') this.warmed = message.warmed;
      if (message.type !== 'ready' || this.isReady) return;
      this.isReady = true;
      for (const run of this.onReady.splice(0)) run();
    });
    // 'close' (not 'exit'): it comes after the IPC channel has delivered the worker's last message.
    this.child.on('close', (code, signal) => {
      this.closedWith = { code, signal };
      for (const run of this.onClose.splice(0)) run(code, signal);
    });
  }

  /** True while the process can still take a job. */
  get usable(): boolean {
    return this.closedWith === null && this.child.connected && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Runs `callback` once the worker has loaded (at once if it has). */
  whenReady(callback: () => void): void {
    if (this.isReady) callback();
    else this.onReady.push(callback);
  }

  /** Runs `callback` once the process is gone (at once if it is). */
  whenClosed(callback: (code: number | null, signal: NodeJS.Signals | null) => void): void {
    if (this.closedWith) callback(this.closedWith.code, this.closedWith.signal);
    else this.onClose.push(callback);
  }

  /**
   * Asks a worker that is waiting for its job to warm these languages' grammars meanwhile, and
   * those the docs under `sources` use (see exportWorker). It answers even when
   * there is nothing to warm, so `warmed` tells that the message got through.
   */
  warmUp(languages: string[], sources: string[]): void {
    this.whenReady(() => {
      if (this.usable) this.child.send({ type: 'warm', languages, sources } satisfies ToExportWorker, () => {});
    });
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/**
 * Runs one export in a worker process (the given spare, or a new one) and resolves with what it
 * produced. The child can crash, run out of memory or hang without harming the server: every
 * way it can end settles the promise exactly once, and the process is killed on timeout or abort.
 */
// size: every way the child can end (exit, crash, timeout, abort, message) settles one promise exactly once; the handlers share that state
export function runExportInChild(input: ExportTaskInput, options: ExportChildOptions): Promise<ExportTaskResult> {
  // size: the promise's executor is the whole function (see above)
  return new Promise((resolve, reject) => {
    const worker = options.worker?.usable ? options.worker : new ExportWorkerProcess(options.heapMb);
    const { child } = worker;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
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
      child.off('message', onMessage);
      if (!reported) worker.kill();
      const settle = () => (err ? reject(err) : resolve(result!));
      const bound = setTimeout(() => {
        worker.kill();
        settle();
      }, CLOSE_WAIT_MS);
      // At once if the process is already gone.
      worker.whenClosed(() => {
        clearTimeout(bound);
        settle();
      });
    };
    const timeout = setTimeout(
      () => finish(new ExportRunError(`export timed out after ${Math.round(options.timeoutMs / 1000)} s`)),
      options.timeoutMs,
    );
    const onAbort = () => {
      if (child.connected) child.send({ type: 'abort' } satisfies ToExportWorker);
      killTimer = setTimeout(() => finish(new ExportRunError('export aborted')), options.abortGraceMs ?? 2000);
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    child.once('error', (err) => finish(new ExportRunError(`cannot start the export worker: ${err.message}`)));
    const onMessage = workerMessageHandler(worker, options, finish);
    child.on('message', onMessage);
    worker.whenReady(() => {
      if (!options.signal?.aborted && child.connected) child.send({ type: 'run', input } satisfies ToExportWorker);
    });
    worker.whenClosed((code, signal) => {
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      const oom = /heap out of memory/i.test(worker.stderr) ? ' (out of memory)' : '';
      finish(
        new ExportRunError(options.signal?.aborted ? 'export aborted' : `export worker stopped unexpectedly (${how})${oom}`, worker.stderr),
      );
    });
  });
}

/** Handles a running worker's reports: progress goes to `onProgress`, its outcome settles the run. */
function workerMessageHandler(
  worker: ExportWorkerProcess,
  options: ExportChildOptions,
  finish: (err: Error | null, result?: ExportTaskResult, reported?: boolean) => void,
): (message: FromExportWorker) => void {
  return (message) => {
    switch (message.type) {
      case 'rendering':
      case 'packing':
        options.onProgress?.(message);
        break;
      case 'done':
        finish(null, message.result, true);
        break;
      case 'failed':
        finish(new ExportRunError(message.error, worker.stderr), undefined, true);
        break;
    }
  };
}
