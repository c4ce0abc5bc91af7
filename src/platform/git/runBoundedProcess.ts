import { spawn } from 'node:child_process';

/** How a bounded process ended. */
export type ProcessOutcome =
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null }
  | { kind: 'timedOut' }
  | { kind: 'aborted' }
  | { kind: 'spawnFailed'; code: string };

/** What to run and the bounds to run it in. */
export interface BoundedProcessOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** Run as this user and group (the server must be root). */
  uid?: number;
  gid?: number;
  /** Written to stdin, which is then closed (a child that never reads it is fine). */
  input?: string;
  timeoutMs: number;
  /** Aborting kills the process group at once (shutdown), or after `abortGraceMs`. */
  signal?: AbortSignal;
  /**
   * On abort, SIGTERM the group first and SIGKILL it only this much later: for a leader that
   * must clean up on the way out (the agent launcher ends every descendant, `setsid` or not).
   */
  abortGraceMs?: number;
  /** Every chunk of stdout and stderr, in arrival order. */
  onOutput(chunk: Buffer, stream: 'stdout' | 'stderr'): void;
  /** Called with the process group id once the child runs. */
  onSpawn?(pid: number): void;
}

/** Grace between SIGTERM and SIGKILL when a run times out. */
const KILL_GRACE_MS = 2000;
/** How long to wait for the output pipes after exit before giving up on them. */
const DRAIN_MS = 1000;

/** Signals a whole process group; a group that is already gone is not an error. */
export function killProcessGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing left to kill.
  }
}

/**
 * Runs a command in its own process group with no shell, a timeout and an abort signal. When
 * it ends for any reason the whole group is killed, so children it left in the background do
 * not outlive the run. Output is streamed to `onOutput` and never buffered here.
 */
// size: every way a child process can end must settle one promise once; those handlers share its state
export function runBoundedProcess(options: BoundedProcessOptions): Promise<ProcessOutcome> {
  // size: the promise's executor is the whole function (see above)
  return new Promise<ProcessOutcome>((resolve) => {
    let settled = false;
    let reason: 'timedOut' | 'aborted' | null = null;
    const timers: NodeJS.Timeout[] = [];

    const child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const pid = child.pid;

    const finish = (outcome: ProcessOutcome) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = () => {
      reason ??= 'aborted';
      if (!pid) return;
      if (!options.abortGraceMs) return killProcessGroup(pid, 'SIGKILL');
      killProcessGroup(pid, 'SIGTERM');
      timers.push(setTimeout(() => killProcessGroup(pid, 'SIGKILL'), options.abortGraceMs));
    };

    child.on('error', (err: NodeJS.ErrnoException) => {
      if (!pid) finish({ kind: 'spawnFailed', code: err.code ?? 'error' });
    });
    if (!pid) return;
    options.onSpawn?.(pid);

    child.stdin.on('error', () => {}); // EPIPE when the child exits without reading stdin
    child.stdin.end(options.input ?? '');
    child.stdout.on('data', (chunk: Buffer) => options.onOutput(chunk, 'stdout'));
    child.stderr.on('data', (chunk: Buffer) => options.onOutput(chunk, 'stderr'));

    timers.push(
      setTimeout(() => {
        reason ??= 'timedOut';
        killProcessGroup(pid, 'SIGTERM');
        timers.push(setTimeout(() => killProcessGroup(pid, 'SIGKILL'), KILL_GRACE_MS));
      }, options.timeoutMs),
    );
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('exit', (code, signal) => {
      // Whatever the leader left running in its group goes with it.
      killProcessGroup(pid, 'SIGKILL');
      const outcome: ProcessOutcome = reason ? { kind: reason } : { kind: 'exited', code, signal };
      // A descendant that escaped the group could hold the pipes open forever: bound the wait.
      let open = 2;
      const closed = () => {
        open -= 1;
        if (open === 0) finish(outcome);
      };
      for (const stream of [child.stdout, child.stderr]) {
        if (stream.closed) closed();
        else stream.once('close', closed);
      }
      timers.push(
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          finish(outcome);
        }, DRAIN_MS),
      );
    });
  });
}
