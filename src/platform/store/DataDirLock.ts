import { closeSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isDiskFull } from './isDiskFull.js';

/** Another live process owns the data directory. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`Another Enclave process (pid ${pid}) is using the data directory ${dataDir}. Stop it first; one process owns a data directory.`);
    this.name = 'DataDirLockedError';
  }
}

/**
 * The lock file that makes one process the owner of a data directory. A lock left by a
 * process that no longer runs (killed with -9, a crashed container) is taken over.
 */
export class DataDirLock {
  private constructor(private readonly path: string) {}

  /** Takes the lock or throws DataDirLockedError naming the owner. */
  static acquire(dataDir: string): DataDirLock {
    const path = join(dataDir, 'enclave.lock');
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const fd = openSync(path, 'wx', 0o600);
        try {
          writeSync(fd, String(process.pid));
        } catch (err) {
          // A full volume still let the file be created, which is the lock itself; only the
          // owner's pid (for messages and stale-lock takeover) is missing. Starting read-only
          // beats refusing to serve the site at all.
          if (!isDiskFull(err)) throw err;
        } finally {
          closeSync(fd);
        }
        return new DataDirLock(path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const owner = Number.parseInt(readFileSafe(path), 10);
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new DataDirLockedError(dataDir, owner);
      }
      rmSync(path, { force: true }); // stale: its owner is gone
    }
    throw new Error(`Could not take the lock ${path}`);
  }

  /**
   * Records where the owner answers (`<pid>\n<url>`), so CLI verbs can manage a running
   * appliance through its API instead of refusing.
   */
  advertise(url: string): void {
    writeFileSync(this.path, `${process.pid}\n${url}\n`, { mode: 0o600 });
  }

  /** The live process owning `dataDir` and the URL it advertised, or null when none runs. */
  static owner(dataDir: string): { pid: number; url: string | null } | null {
    const [pidLine, url] = readFileSafe(join(dataDir, 'enclave.lock')).split('\n');
    const pid = Number.parseInt(pidLine, 10);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !isAlive(pid)) return null;
    return { pid, url: url?.trim() || null };
  }

  /** Releases the lock (on clean shutdown). */
  release(): void {
    rmSync(this.path, { force: true });
  }
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
