import { constants } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

/** How every extracted file is opened: never follow or replace what is there, every target is new. */
export const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Creates `filesDir` (which must not exist yet; its parents may not either) and returns a
 * function that creates a folder below it once, however many entries ask for it at once.
 */
export async function makeTargetDirs(filesDir: string): Promise<(dir: string) => Promise<void>> {
  await mkdir(filesDir, { recursive: false, mode: 0o755 }).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
    await mkdir(dirname(filesDir), { recursive: true });
    await mkdir(filesDir, { mode: 0o755 });
  });
  const madeDirs = new Map<string, Promise<void>>([[filesDir, Promise.resolve()]]);
  const ensureDir = (dir: string): Promise<void> => {
    let made = madeDirs.get(dir);
    if (!made) {
      made = ensureDir(dirname(dir)).then(() => mkdir(dir, { mode: 0o755 }).then(() => undefined));
      madeDirs.set(dir, made);
    }
    return made;
  };
  return ensureDir;
}
