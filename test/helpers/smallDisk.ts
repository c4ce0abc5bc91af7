import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small real filesystem (tmpfs) the test can fill up, or null where mounting isn't allowed. */
export interface SmallDisk {
  dir: string;
  /** Writes a filler file until the disk refuses (ENOSPC). */
  fill(): void;
  /**
   * Fills the disk and keeps it full until it has stayed full for `quietChecks` checks 200 ms
   * apart (bounded): a write the appliance began before the fill can hand blocks back late.
   */
  fillAndSettle(quietChecks?: number): Promise<void>;
  /** Deletes the filler, freeing the space again. */
  free(): void;
  unmount(): void;
}

/** Mounts a tmpfs of `sizeMb` (needs root); null when the machine doesn't allow it. */
export function mountSmallDisk(sizeMb: number): SmallDisk | null {
  const dir = mkdtempSync(join(tmpdir(), 'enclave-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const filler = join(dir, 'filler.bin');
  const disk: SmallDisk = {
    dir,
    async fillAndSettle(quietChecks = 3) {
      let quiet = 0;
      for (let i = 0; i < 50 && quiet < quietChecks; i++) {
        disk.fill();
        await new Promise((r) => setTimeout(r, 200));
        quiet = statfsSync(dir).bavail === 0 ? quiet + 1 : 0;
      }
    },
    fill() {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024, 1);
      try {
        for (let i = 0; i < 100_000; i++) writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        closeSync(fd);
      }
      // Small writes can still fit in the last partial block: take those too.
      const fd2 = openSync(filler, 'a');
      try {
        for (let i = 0; i < 100_000; i++) writeSync(fd2, Buffer.alloc(512, 1));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        closeSync(fd2);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      try {
        execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  return disk;
}
