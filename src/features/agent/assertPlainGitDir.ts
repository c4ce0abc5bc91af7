import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentRunFailure } from './AgentRunFailure.js';

/** Files that make git read another directory's config, hooks and objects. */
const REDIRECTS = ['commondir', 'gitdir'];

/**
 * Refuses a clone whose `.git` is not a plain directory of its own: a symlink, a `gitdir:`
 * file, or a directory holding `commondir`/`gitdir` would steer git to files someone else
 * chose. `who` names the culprit in the job's error.
 */
export async function assertPlainGitDir(repoDir: string, who: string): Promise<void> {
  const gitDir = join(repoDir, '.git');
  const info = await lstat(gitDir).catch(() => null);
  if (!info) throw new AgentRunFailure(`${who} removed the clone's .git directory; nothing was pushed`);
  if (info.isSymbolicLink()) throw new AgentRunFailure(`${who} replaced the clone's .git with a symlink; refused, nothing was pushed`);
  if (!info.isDirectory()) throw new AgentRunFailure(`${who} replaced the clone's .git with a file; refused, nothing was pushed`);
  const names = await readdir(gitDir);
  const redirect = REDIRECTS.find((name) => names.includes(name));
  if (redirect) throw new AgentRunFailure(`${who} added .git/${redirect}, which points git elsewhere; refused, nothing was pushed`);
}
