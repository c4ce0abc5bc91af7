import { tmpdir } from 'node:os';
import { GitTextLog } from '../../platform/git/GitTextLog.js';
import { runGit, type GitContext } from '../../platform/git/runGit.js';

/** One commit, as an agent prompt lists it. */
export interface CommitLine {
  sha: string;
  author: string;
  subject: string;
}

/** Commits listed at most (newest first); an agent prompt needs the gist, not a whole history. */
const MAX_COMMITS = 50;

/**
 * The commits reachable from `head` and not from `since`, newest first. With no `since` (no
 * earlier run), or one the branch no longer contains (history rewritten), the latest commits.
 */
export async function listCommits(
  cloneDir: string,
  options: { head: string; since: string | null; timeoutMs: number },
): Promise<CommitLine[]> {
  const git: GitContext = { cwd: cloneDir, home: tmpdir(), timeoutMs: options.timeoutMs, log: new GitTextLog() };
  let range = options.head;
  if (options.since) {
    const known = await runGit(git, ['merge-base', '--is-ancestor', options.since, options.head], { allowedExitCodes: [1, 128] });
    if (known.code === 0) range = `${options.since}..${options.head}`;
  }
  const { stdout } = await runGit(git, ['log', `--max-count=${MAX_COMMITS}`, '--format=%H%x00%an%x00%s', range, '--']);
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha = '', author = '', subject = ''] = line.split('\0');
      return { sha, author, subject };
    });
}
