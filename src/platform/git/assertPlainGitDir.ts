import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Files that make git read another directory's config, hooks and objects. */
const REDIRECTS = ['commondir', 'gitdir'];

/**
 * Refuses a clone whose `.git` is not a plain directory of its own: a symlink, a `gitdir:`
 * file, or a directory holding `commondir`/`gitdir` would steer git to files someone else
 * chose. `who` names the culprit in the error; `refuse` builds it (each caller has its own
 * failure type and wording of the consequence, e.g. "nothing was pushed").
 */
export async function assertPlainGitDir(repoDir: string, who: string, refuse: (message: string) => Error): Promise<void> {
  const gitDir = join(repoDir, '.git');
  const info = await lstat(gitDir).catch(() => null);
  if (!info) throw refuse(`${who} removed the clone's .git directory`);
  if (info.isSymbolicLink()) throw refuse(`${who} replaced the clone's .git with a symlink; refused`);
  if (!info.isDirectory()) throw refuse(`${who} replaced the clone's .git with a file; refused`);
  const names = await readdir(gitDir);
  const redirect = REDIRECTS.find((name) => names.includes(name));
  if (redirect) throw refuse(`${who} added .git/${redirect}, which points git elsewhere; refused`);
}
