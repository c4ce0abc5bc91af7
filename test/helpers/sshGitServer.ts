import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './freePort.js';

const run = promisify(execFile);

/** Where Debian's openssh-server puts the daemon (scripts/ensure-sshd.sh installs it). */
export const SSHD = '/usr/sbin/sshd';

/** A running OpenSSH server that serves git repositories by path, as a git host's sshd would. */
export interface SshGitServer {
  port: number;
  /** The user the test logs in as (the one running the tests: sshd can only be someone else as root). */
  user: string;
  /** `ssh://<user>@127.0.0.1:<port><absolutePath>`: a repository on this machine, through this server. */
  url(absolutePath: string): string;
  /** A private key sshd accepts for `user` (no passphrase). */
  clientKeyFile: string;
  /** A known_hosts file naming this server's host key for `[127.0.0.1]:<port>`. */
  knownHostsFile: string;
  /** This server's known_hosts line (to write elsewhere, or to compare with). */
  knownHostsLine: string;
  /** Lets `publicKey` log in too (sshd reads authorized_keys at each login). */
  authorize(publicKey: string): Promise<void>;
  /** What sshd has logged so far (`-e`: its log on stderr): accepted and refused logins. */
  log(): string;
  /** Logins sshd has accepted so far (one per ssh connection, shared or not). */
  logins(): number;
  /**
   * Kills sshd with every connection it serves (as a reboot of the git host would: each
   * client's socket is closed) and starts it again on the same port with the same host key.
   */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A new key pair `<dir>/<name>` (ed25519), optionally with a passphrase; resolves with the public key line. */
export async function makeSshKey(dir: string, name: string, passphrase = ''): Promise<string> {
  const file = join(dir, name);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', passphrase, '-C', name, '-f', file]);
  return (await readFile(`${file}.pub`, 'utf8')).trim();
}

/** The known_hosts line for a host key `publicKey` ("type base64 comment") of 127.0.0.1 at `port`. */
export function knownHostsEntry(port: number, publicKey: string): string {
  const [type, key] = publicKey.split(' ');
  return `[127.0.0.1]:${port} ${type} ${key}`;
}

/**
 * Starts `sshd -D -e` on 127.0.0.1 with a config, host key and authorized key of its own in
 * `dir` (nothing of the machine's sshd setup is read or changed; no PAM, no password logins).
 * Fails, rather than skips, when sshd is missing: `npm test` installs it (scripts/ensure-sshd.sh).
 */
export async function startSshGitServer(dir: string): Promise<SshGitServer> {
  if (!existsSync(SSHD))
    throw new Error(`${SSHD} is missing: run scripts/ensure-sshd.sh (npm test does) or apt-get install openssh-server`);
  await mkdir(dir, { recursive: true });
  const hostKey = await makeSshKey(dir, 'host_key');
  const clientKey = await makeSshKey(dir, 'client_key');
  await writeFile(join(dir, 'authorized_keys'), `${clientKey}\n`);
  // Root's sshd drops privileges into this empty directory; Debian makes it only at service start.
  if (process.getuid?.() === 0) await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  const user = userInfo().username;
  const config = join(dir, 'sshd_config');
  // The remote shell's home: sshd runs every command through the user's login shell, and bash
  // started by sshd reads ~/.bashrc, so a developer's (a pyenv or nvm set-up: 300 ms a login on
  // this machine) would be timed as the git host's. A git host's account has no such file.
  const home = join(dir, 'home');
  await mkdir(home, { recursive: true });
  let started: Daemon | undefined;
  let port = 0;
  const log: string[] = [];
  for (let attempt = 1; !started; attempt++) {
    port = await freePort();
    await writeFile(config, sshdConfig(dir, port, user, home));
    const outcome = await startDaemon(config, log).catch((err: Error) => err);
    if (outcome instanceof Error) {
      if (/Address already in use/.test(outcome.message) && attempt < 5) continue;
      throw outcome;
    }
    started = outcome;
  }
  let daemon: Daemon = started;
  const knownHostsLine = knownHostsEntry(port, hostKey);
  const knownHostsFile = join(dir, 'known_hosts');
  await writeFile(knownHostsFile, `${knownHostsLine}\n`);
  return {
    port,
    user,
    url: (path) => `ssh://${user}@127.0.0.1:${port}${path}`,
    clientKeyFile: join(dir, 'client_key'),
    knownHostsFile,
    knownHostsLine,
    authorize: (publicKey) => appendFile(join(dir, 'authorized_keys'), `${publicKey}\n`),
    log: () => log.join(''),
    logins: () => log.join('').match(/Accepted publickey for /g)?.length ?? 0,
    async restart() {
      await stopDaemon(daemon.child, true);
      daemon = await startDaemon(config, log);
    },
    close: () => stopDaemon(daemon.child, true),
  };
}

function sshdConfig(dir: string, port: number, user: string, home: string): string {
  return [
    `ListenAddress 127.0.0.1`,
    `Port ${port}`,
    `HostKey ${join(dir, 'host_key')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    'PidFile none',
    'StrictModes no',
    'UsePAM no',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    `AllowUsers ${user}`,
    'LogLevel VERBOSE',
    `SetEnv HOME=${home}`,
    '',
  ].join('\n');
}

interface Daemon {
  child: ChildProcess;
}

/** Spawns sshd and resolves once it listens; rejects with its log if it exits first. Its stderr goes to `log`. */
function startDaemon(config: string, log: string[]): Promise<Daemon> {
  // An absolute path: sshd re-executes itself for every connection.
  const child = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  // A test file's process that ends without its teardown (a crash, a timeout) takes sshd with it.
  const stop = () => child.kill('SIGTERM');
  process.once('exit', stop);
  child.once('exit', () => process.removeListener('exit', stop));
  const from = log.length;
  return new Promise((resolve, reject) => {
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      log.push(chunk);
      if (/Server listening on/.test(log.slice(from).join(''))) resolve({ child });
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`sshd exited (${code}) before listening: ${log.slice(from).join('')}`)));
  });
}

/** The pids of `pid`'s descendants (sshd's per-connection processes: each a session of its own). */
async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid) parents.set(Number(name), ppid);
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/** Stops sshd; with `connections`, every connection it serves first (sshd alone leaves them running, as a restart of the service does). */
async function stopDaemon(child: ChildProcess, connections: boolean): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  if (connections && child.pid) {
    for (const pid of await descendants(child.pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
