import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDiskFull } from './isDiskFull.js';

/** Another process holds the data directory's lock: a server, or a CLI verb working on the store. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    /** The owner's pid as it recorded it (in its own PID namespace), or null when unknown. */
    readonly pid: number | null,
    /** Where the owner's admin API answers, when it is a server that has started listening. */
    readonly url: string | null,
  ) {
    super(
      `Another Enclave process${pid ? ` (pid ${pid})` : ''} is using the data directory ${dataDir}. Stop it first; one process owns a data directory.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * The lock that makes one process the owner of a data directory: an OS lock (flock) on
 * `<dataDir>/enclave.lock`, so it holds across PID namespaces and containers sharing the volume,
 * where a pid in a file can't tell a live owner from a dead one. Node has no flock, so a small
 * `flock(1)` child (util-linux, present on every Debian-based image) takes it and keeps it while
 * it waits on a pipe from this process; when this process exits, however it dies, the pipe
 * closes, the child exits and the kernel drops the lock. The file itself is never deleted (a
 * new file at the same path would be a different, unlocked inode); it only says who holds it.
 */
export class DataDirLock {
  private releasing = false;

  private constructor(
    private readonly path: string,
    private readonly holder: ChildProcess,
  ) {}

  /**
   * Calls `listener` if the lock is lost while held: its holder process was killed from outside
   * (the kernel then drops the lock, and another process could take the directory).
   */
  onLost(listener: () => void): void {
    this.holder.once('exit', () => {
      if (!this.releasing) listener();
    });
  }

  /** Takes the lock or throws DataDirLockedError naming the owner; never waits for it. */
  static async acquire(dataDir: string): Promise<DataDirLock> {
    const path = lockPath(dataDir);
    // Created here, not by flock(1), so that it is 0600 and an unwritable directory fails with
    // Node's own message naming the path.
    closeSync(openSync(path, 'a', 0o600));
    const holder = await holdFlockOnceOwnerGone(path);
    if (!holder) {
      const owner = readOwner(path);
      throw new DataDirLockedError(dataDir, owner.pid, owner.url);
    }
    const lock = new DataDirLock(path, holder);
    try {
      writeFileSync(path, `${process.pid}\n`);
    } catch (err) {
      // A full volume: the lock is held, only the note of who holds it is missing. Starting
      // read-only beats refusing to serve the site at all.
      if (!isDiskFull(err)) {
        await lock.release();
        throw err;
      }
    }
    return lock;
  }

  /**
   * Tells whether a process owns `dataDir` and where it answers, without keeping the lock.
   * Null when nobody holds it.
   */
  static async owner(dataDir: string): Promise<{ pid: number | null; url: string | null } | null> {
    try {
      await (await DataDirLock.acquire(dataDir)).release();
      return null;
    } catch (err) {
      if (err instanceof DataDirLockedError) return { pid: err.pid, url: err.url };
      throw err;
    }
  }

  /**
   * Records where the owner answers (`<pid>\n<url>`), so CLI verbs can manage a running
   * appliance through its API instead of refusing. Written in place: the locked inode stays.
   */
  advertise(url: string): void {
    writeFileSync(this.path, `${process.pid}\n${url}\n`);
  }

  /** Releases the lock and resolves once the kernel has dropped it (on clean shutdown). */
  async release(): Promise<void> {
    this.releasing = true;
    if (this.holder.exitCode !== null || this.holder.signalCode !== null) {
      this.holder.stdin?.end(); // flock was killed: its `cat` may still wait on the pipe
      return;
    }
    const exited = new Promise((resolve) => this.holder.once('exit', resolve));
    // Held again while it lets go, so this process waits for the kernel to drop the lock.
    this.holder.ref();
    // The note goes first: a reader that finds the lock free must not find a stale URL either.
    try {
      writeFileSync(this.path, '');
    } catch {}
    this.holder.stdin?.end();
    await exited;
  }
}

function lockPath(dataDir: string): string {
  return join(dataDir, 'enclave.lock');
}

/**
 * Starts `flock -n <path> sh -c 'echo locked; exec cat'`: resolves with the child once it says
 * it holds the lock, or null when another process holds it. `cat` keeps the lock until its
 * stdin (our pipe) closes. The child is unref'd: a lock never keeps this process alive.
 */
/**
 * Takes the lock; when it is held but the owner it names has died (a restart right after a
 * kill -9), waits up to DEAD_OWNER_WAIT_MS for the dead owner's flock(1) child to see its pipe
 * close and exit, which is when the kernel drops the lock.
 */
async function holdFlockOnceOwnerGone(path: string): Promise<ChildProcess | null> {
  const deadline = Date.now() + DEAD_OWNER_WAIT_MS;
  for (;;) {
    const holder = await holdFlock(path);
    if (holder || Date.now() >= deadline || isAlive(readOwner(path).pid)) return holder;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const DEAD_OWNER_WAIT_MS = 5000;

/** Whether a process of that id exists here (another PID namespace's owner may look dead: then only the wait is lost). */
function isAlive(pid: number | null): boolean {
  if (pid === null) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holdFlock(path: string): Promise<ChildProcess | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('flock', ['--nonblock', path, '/bin/sh', '-c', 'echo locked; exec cat'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      // Only what it needs: the server's environment (keys, secrets) stays in the server.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (!out.startsWith('locked\n')) return;
      child.stdout.removeAllListeners('data');
      child.stdout.destroy();
      child.stderr.destroy();
      child.unref();
      (child.stdin as unknown as { unref?: () => void }).unref?.();
      resolve(child);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'ENOENT'
          ? new Error(`flock(1) is needed to lock the data directory (${path}) and is not on PATH: install util-linux`)
          : e,
      ),
    );
    child.on('exit', (code) => {
      if (out.startsWith('locked\n')) return;
      // flock -n exits 1 without a word when the lock is held; anything else is a real failure.
      if (code === 1 && !err.trim()) resolve(null);
      else reject(new Error(`could not lock ${path}: ${err.trim() || `flock exited with ${code}`}`));
    });
  });
}

function readOwner(path: string): { pid: number | null; url: string | null } {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {}
  const [pidLine, url] = text.split('\n');
  const pid = Number.parseInt(pidLine ?? '', 10);
  return { pid: Number.isInteger(pid) && pid > 0 ? pid : null, url: url?.trim() || null };
}
