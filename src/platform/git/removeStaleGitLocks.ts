import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Where git writes its `*.lock` files: the .git folder itself, refs, and objects/info. */
const LOCK_PLACES = ['', 'refs', join('objects', 'info')];

/**
 * Removes git's `*.lock` files from the repository at `repoDir` and returns their paths
 * (relative to .git). A git killed mid-write (the appliance killed, or a fetch killed at a
 * timeout or shutdown) leaves them, and every later fetch then fails with "cannot lock ref"
 * until someone deletes them by hand. Only for a repository no git process is using: the
 * caller must know that.
 */
export async function removeStaleGitLocks(repoDir: string): Promise<string[]> {
  const gitDir = join(repoDir, '.git');
  const removed: string[] = [];
  for (const place of LOCK_PLACES) {
    const entries = await readdir(join(gitDir, place), { recursive: place !== '', withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.name.endsWith('.lock') || entry.isDirectory()) continue;
      const path = join(entry.parentPath, entry.name);
      await rm(path, { force: true });
      removed.push(path.slice(gitDir.length + 1));
    }
  }
  return removed.sort();
}
