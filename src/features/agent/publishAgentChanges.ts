import { AgentRunFailure } from './AgentRunFailure.js';
import { GitCommandError, runGit, type GitContext } from '../../platform/git/runGit.js';

/** A commit subject from the prompt's first non-empty line (git's customary 72 columns). */
export function commitSubject(prompt: string, jobId: string): string {
  const first = prompt
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .find((l) => l.length > 0);
  if (!first) return `Agent job ${jobId}`;
  return first.length <= 72 ? first : `${first.slice(0, 71)}…`;
}

/**
 * Commits whatever the agent changed (new, edited and deleted files) and pushes the branch.
 * Commits the agent made itself count as changes too. Returns whether anything was pushed.
 * Never force-pushes: if the branch moved on the server meanwhile, the push fails.
 */
export async function publishAgentChanges(
  git: GitContext,
  options: { repository: string; branch: string; startHead: string | null; prompt: string; jobId: string; previewUrl?: string | null },
): Promise<{ pushed: boolean }> {
  await runGit(git, ['add', '--all']);
  const staged = await runGit(git, ['diff', '--cached', '--quiet'], { allowedExitCodes: [1] });
  if (staged.code === 1) {
    await runGit(git, [
      'commit',
      '--quiet',
      '--no-verify',
      '-m',
      commitSubject(options.prompt, options.jobId),
      '-m',
      // Code hosts take a one-commit pull request's description from its commit message.
      ...(options.previewUrl ? [`Preview: ${options.previewUrl}`, '-m'] : []),
      `Enclave-Agent-Job: ${options.jobId}`,
    ]);
  }
  const head = await runGit(git, ['rev-parse', '--verify', '--quiet', 'HEAD'], { allowedExitCodes: [1] });
  if (!head.stdout || head.stdout === options.startHead) return { pushed: false };
  try {
    await runGit(git, ['push', '--quiet', '--no-verify', '--', options.repository, `HEAD:refs/heads/${options.branch}`]);
  } catch (err) {
    if (err instanceof GitCommandError) {
      throw new AgentRunFailure(
        `could not push branch ${options.branch} to the repository (${err.reason}: rejected, or no write access; see the job log)`,
      );
    }
    throw err;
  }
  return { pushed: true };
}
