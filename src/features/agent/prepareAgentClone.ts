import { AgentRunFailure } from './AgentRunFailure.js';
import { redactCredentials } from '../../platform/git/redactCredentials.js';
import { GitCommandError, runGit, type GitContext } from '../../platform/git/runGit.js';

/** A clone ready for the agent: on its branch, with the commit it started from. */
export interface PreparedClone {
  /** The branch the job proposes changes against (`{base}` in PR links). */
  baseRef: string | null;
  /** HEAD before the agent ran (null in an empty repository). */
  startHead: string | null;
  /** True when the branch already existed on the remote and the run continues it. */
  continued: boolean;
}

/** Resolves `rev` to a commit id, or null when there is no such commit. */
async function commitOf(git: GitContext, rev: string): Promise<string | null> {
  const { code, stdout } = await runGit(git, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { allowedExitCodes: [1] });
  return code === 0 && stdout ? stdout : null;
}

/**
 * Clones `repository` into `<workDir>/repo` and checks out `branch`: from the branch itself
 * when an earlier run already pushed it (a follow-up continues the same work), else from
 * `requestedRef` (a branch, tag or commit) or the repository's default branch.
 */
export async function prepareAgentClone(
  git: GitContext,
  options: { workDir: string; repository: string; requestedRef: string | null; branch: string },
): Promise<PreparedClone> {
  try {
    await runGit({ ...git, cwd: options.workDir }, ['clone', '--no-hardlinks', '--quiet', '--', options.repository, 'repo']);
  } catch (err) {
    if (err instanceof GitCommandError) {
      throw new AgentRunFailure(`could not clone the repository (${err.reason}: not found, not readable or refused; see the job log)`);
    }
    throw err;
  }
  // The clone's config would keep a deploy token from the URL for the agent to read; pushes
  // name the repository explicitly, so origin only needs to say where the clone came from.
  await runGit(git, ['remote', 'set-url', 'origin', redactCredentials(options.repository)]);

  let baseRef: string | null;
  let base: string | null;
  if (options.requestedRef) {
    const ref = options.requestedRef;
    baseRef = ref;
    base = (await commitOf(git, `refs/remotes/origin/${ref}`)) ?? (await commitOf(git, `refs/tags/${ref}`)) ?? (await commitOf(git, ref));
    if (!base) throw new AgentRunFailure(`ref '${ref}' was not found in the repository`);
  } else {
    const head = await runGit(git, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { allowedExitCodes: [1] });
    baseRef = head.code === 0 && head.stdout ? head.stdout : null;
    base = await commitOf(git, 'HEAD');
  }

  const pushed = await commitOf(git, `refs/remotes/origin/${options.branch}`);
  const start = pushed ?? base;
  if (start) await runGit(git, ['checkout', '--quiet', '--no-track', '-B', options.branch, start]);
  else await runGit(git, ['symbolic-ref', 'HEAD', `refs/heads/${options.branch}`]); // empty repository: first commit starts the branch
  return { baseRef, startHead: start, continued: pushed !== null };
}
