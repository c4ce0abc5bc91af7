import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { GitSourceConfig } from '../../../config/sections/gitSource.js';
import type { Clock } from '../../../platform/Clock.js';
import type { Task } from '../../../platform/Task.js';
import { sshClientOptions, sshCommandLine, sshConfigText, sshPath } from './sshClientOptions.js';
import { SshMaster } from './SshMaster.js';
import { sshTarget } from './sshTarget.js';

/** A fetch's use of a shared connection: the ssh command that goes through it, and its end. */
export interface SshLease {
  /** GIT_SSH_COMMAND for this fetch: `ssh -F <the master's config>`. */
  sshCommand: string;
  /** The fetch is over (the connection stays for the next one). */
  release(): void;
  /** The fetch failed through the connection: it is stopped, and the next fetch starts a fresh one. */
  discard(): Promise<void>;
}

/** What fetches ask of the shared connections (fetchGitSource takes this port). */
export interface SharedSsh {
  /** A lease on the connection for `source` (started if need be), or null: log in directly. */
  lease(source: GitSourceConfig, limits: { timeoutMs: number; signal?: AbortSignal }): Promise<SshLease | null>;
}

/** Settings of the shared connections. */
export interface SshConnectionsOptions {
  /** `<dataDir>/ssh`: sockets and configs, mode 0700. */
  dir: string;
  clock: Clock;
  logger: Logger;
  /** A master no fetch has used for this long is stopped (the `ssh-idle` task). */
  idleMs: number;
  /** Prefix for the master's command (`setpriv --pdeathsig TERM --`), or none. */
  launcher: string[];
}

/** ssh builds `<ControlPath>.<16 random characters>` and binds it; sun_path holds 107 bytes. */
const MAX_SOCKET_PATH_BYTES = 107 - 17;

interface Entry {
  /** Which files, as they were when the master logged in: a change means a new master. */
  fingerprint: string;
  master: Promise<SshMaster | null>;
  lastUsed: number;
}

/**
 * The appliance's shared ssh connections to git servers: one master per remote (user, host,
 * port) and key and known_hosts file, started when a fetch first needs it, reused by the
 * fetches after it, and stopped when idle, when the files change, on shutdown, or when it
 * failed a fetch. Names in the directory are random, and each master's ControlPath is written
 * only in its config file (0600), never on a command line other processes could read.
 */
export class SshConnections implements SharedSsh {
  private readonly entries = new Map<string, Entry>();
  private stopped = false;
  private tooLongLogged = false;

  constructor(private readonly options: SshConnectionsOptions) {}

  /**
   * Empties the directory of what an earlier run left (a crash's configs and sockets); call
   * before the first lease. The directory itself is made when a first master needs it, so an
   * appliance without ssh sources never has one.
   */
  async prepare(): Promise<void> {
    const names = await readdir(this.options.dir).catch(() => [] as string[]);
    for (const name of names) await rm(join(this.options.dir, name), { force: true, recursive: true });
  }

  /** @inheritdoc */
  async lease(source: GitSourceConfig, limits: { timeoutMs: number; signal?: AbortSignal }): Promise<SshLease | null> {
    const target = sshTarget(source.git);
    if (this.stopped || !target || !source.knownHostsFile) return null;
    const key = JSON.stringify([target.user ?? null, target.host, target.port ?? 22, source.sshKeyFile ?? null, source.knownHostsFile]);
    const fingerprint = await filesFingerprint([source.knownHostsFile, source.sshKeyFile]);
    if (!fingerprint) return null; // a file is missing: the direct login says so in ssh's words
    // Re-read after every wait: a lease running beside this one may have replaced the entry.
    for (let entry = this.entries.get(key); entry; entry = this.entries.get(key)) {
      if (entry.fingerprint !== fingerprint) {
        await this.drop(key, entry); // logged in under other files: it must not serve this fetch
        continue;
      }
      const master = await entry.master;
      if (this.entries.get(key) !== entry) continue;
      // It failed to log in with these very files: no second try until they change or the
      // idle task clears the failure (within a minute), so a bad key costs one login, not two.
      if (!master) return null;
      if (await master.usable()) return this.leaseOf(key, entry, master);
      await this.drop(key, entry); // died (server restart, killed) or lost its socket
    }
    if (this.stopped) return null;
    const entry: Entry = { fingerprint, master: this.startMaster(source, target, limits), lastUsed: this.options.clock.now().getTime() };
    this.entries.set(key, entry);
    const master = await entry.master;
    return master?.alive() ? this.leaseOf(key, entry, master) : null;
  }

  /** Stops every master no fetch has used for the idle time as of `now` (the task's body). */
  async stopIdle(now: Date): Promise<void> {
    const stopping: Promise<void>[] = [];
    for (const [key, entry] of this.entries) {
      const master = await entry.master;
      if (master && master.inUse() > 0) continue;
      if (!master || now.getTime() - entry.lastUsed >= this.options.idleMs) stopping.push(this.drop(key, entry));
    }
    await Promise.all(stopping);
  }

  /** The `ssh-idle` task: once a minute, masters idle for the configured time are stopped. */
  idleTask(): Task {
    return { name: 'ssh-idle', cron: '* * * * *', run: (now) => this.stopIdle(now) };
  }

  /** Stops every master and refuses new ones (shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.entries].map(([key, entry]) => this.drop(key, entry)));
  }

  /** The running masters' process ids (tests look for them in /proc). */
  async pids(): Promise<number[]> {
    const masters = await Promise.all([...this.entries.values()].map((e) => e.master));
    return masters.flatMap((m) => (m?.alive() && m.pid ? [m.pid] : []));
  }

  private leaseOf(key: string, entry: Entry, master: SshMaster): SshLease {
    master.take();
    entry.lastUsed = this.options.clock.now().getTime();
    let done = false;
    const end = () => {
      if (done) return false;
      done = true;
      master.give();
      entry.lastUsed = this.options.clock.now().getTime();
      return true;
    };
    return {
      sshCommand: sshCommandLine([], master.spec.configFile),
      release: () => void end(),
      discard: async () => {
        end();
        if (this.entries.get(key) === entry) await this.drop(key, entry);
      },
    };
  }

  private async startMaster(
    source: GitSourceConfig,
    target: NonNullable<ReturnType<typeof sshTarget>>,
    limits: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<SshMaster | null> {
    const { dir, launcher, logger } = this.options;
    const socketPath = join(dir, randomName());
    if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
      if (!this.tooLongLogged) logger.warn({ dir }, 'ssh: the data directory path is too long for a control socket; every fetch logs in');
      this.tooLongLogged = true;
      return null;
    }
    const configFile = join(dir, randomName());
    const options = [...sshClientOptions(source), ['ControlMaster', 'no'] as const, ['ControlPath', sshPath(socketPath)] as const];
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await chmod(dir, 0o700); // whatever made it before, nobody else may reach the socket
      await writeFile(configFile, sshConfigText(options), { mode: 0o600 });
      return await SshMaster.start({ target, configFile, socketPath, launcher, ...limits });
    } catch (err) {
      logger.warn({ host: target.host, reason: (err as Error).message }, 'ssh: no shared connection; fetches log in directly');
      await rm(configFile, { force: true });
      return null;
    }
  }

  private async drop(key: string, entry: Entry): Promise<void> {
    if (this.entries.get(key) === entry) this.entries.delete(key);
    const master = await entry.master;
    if (!master) return;
    await master.stop();
    // A fetch still holding the config fails over to a direct login (fetchGitSource retries).
    await rm(master.spec.configFile, { force: true });
  }
}

/** 16 random hex digits: names nobody can guess, short enough for a socket path. */
function randomName(): string {
  return randomBytes(8).toString('hex');
}

/** Identity and change times of the files (ssh reads them, the appliance never does), or null if one is missing. */
async function filesFingerprint(paths: Array<string | undefined>): Promise<string | null> {
  const parts: string[] = [];
  for (const path of paths) {
    if (!path) {
      parts.push('-');
      continue;
    }
    const s = await stat(path).catch(() => null);
    if (!s) return null;
    parts.push(`${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`);
  }
  return parts.join('|');
}
