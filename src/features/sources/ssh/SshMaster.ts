import { type ChildProcess, spawn } from 'node:child_process';
import { stat, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { buildCleanEnv } from '../../../platform/git/buildCleanEnv.js';
import { killProcessGroup } from '../../../platform/git/runBoundedProcess.js';
import type { SshTarget } from './sshTarget.js';

/** How a master is started: where its files are, and how long it may take to log in. */
export interface SshMasterSpec {
  target: SshTarget;
  /** The master's ssh_config (0600, in the 0700 directory): every option, its ControlPath too. */
  configFile: string;
  socketPath: string;
  /** The run with which the appliance starts children it wants to die with it (see SshConnections). */
  launcher: string[];
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Kept from the master's stderr: ssh's reason when it could not log in. */
const STDERR_CAP = 4096;
/** How often the socket is looked for while the master logs in. */
const READY_POLL_MS = 10;
/** Grace between SIGTERM (ssh removes its socket) and SIGKILL when a master is stopped. */
const STOP_GRACE_MS = 2000;

/**
 * One `ssh -M -N` the appliance started and tracks: a logged-in connection that fetches share
 * through its socket (`ControlMaster=no` on their side). It is a child of the appliance in a
 * process group of its own, and ends when stopped, when its server connection dies, or with
 * the appliance.
 */
export class SshMaster {
  private stderr = '';
  private leases = 0;
  /** Set once the process has exited, whatever ended it. */
  readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly spec: SshMasterSpec,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      if (this.stderr.length < STDERR_CAP) this.stderr += chunk;
    });
  }

  /**
   * Starts a master and resolves once its socket answers (ssh makes it only after the login),
   * or rejects with ssh's reason (a host key, a refused key), on the time limit, or on abort.
   */
  static async start(spec: SshMasterSpec): Promise<SshMaster> {
    const { target } = spec;
    const args = [
      '-F',
      spec.configFile,
      '-M',
      '-N',
      '-o',
      'ControlPersist=no',
      '-o',
      'ServerAliveInterval=15',
      '-o',
      'ServerAliveCountMax=3',
    ];
    if (target.user) args.push('-l', target.user);
    if (target.port) args.push('-p', String(target.port));
    args.push('--', target.host);
    const [command, ...prefix] = [...spec.launcher, 'ssh'];
    const child = spawn(command!, [...prefix, ...args], {
      env: buildCleanEnv(tmpdir()),
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const master = new SshMaster(child, spec);
    const failed = (reason: string) => {
      master.stop();
      return new Error(reason);
    };
    const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
    const limit = AbortSignal.timeout(spec.timeoutMs);
    for (;;) {
      if (await isSocket(spec.socketPath)) return master;
      const ended = await Promise.race([master.exited.then(() => 'exited' as const), spawnError, sleep(READY_POLL_MS).then(() => null)]);
      if (ended instanceof Error) throw failed(`could not start ssh: ${ended.message}`);
      if (ended === 'exited') throw failed(master.reason() || 'ssh exited before logging in');
      if (spec.signal?.aborted) throw failed('interrupted');
      if (limit.aborted) throw failed(`ssh did not log in within ${spec.timeoutMs} ms`);
    }
  }

  /** The process id (tests look for it in /proc). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True while the process runs (a master whose connection died exits by itself). */
  alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** True while it runs and its socket is there (a socket removed by hand would send every fetch to a login of its own). */
  async usable(): Promise<boolean> {
    return this.alive() && (await isSocket(this.spec.socketPath));
  }

  /** What ssh said on stderr, trimmed (its reason when it failed to log in). */
  reason(): string {
    return this.stderr.trim();
  }

  /** Marks a fetch as using the connection; idle time counts only while none does. */
  take(): void {
    this.leases += 1;
  }

  /** Ends a fetch's use; the number of fetches still using it. */
  give(): number {
    this.leases = Math.max(0, this.leases - 1);
    return this.leases;
  }

  /** Fetches using the connection now. */
  inUse(): number {
    return this.leases;
  }

  /** Ends the master (SIGTERM, then SIGKILL after a grace) and resolves once it has exited. */
  async stop(): Promise<void> {
    const pid = this.child.pid;
    if (pid && this.alive()) {
      killProcessGroup(pid, 'SIGTERM');
      const grace = setTimeout(() => killProcessGroup(pid, 'SIGKILL'), STOP_GRACE_MS);
      await this.exited;
      clearTimeout(grace);
    }
    // ssh removes it on SIGTERM, not when killed: a socket nobody answers must not stay.
    await unlink(this.spec.socketPath).catch(() => {});
  }
}

async function isSocket(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isSocket(),
    () => false,
  );
}
