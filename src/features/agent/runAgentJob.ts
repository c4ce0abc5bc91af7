import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config/schema.js';
import { agentBranchName, type AgentJobRecord } from './AgentJobRecord.js';
import { AgentRunFailure } from './AgentRunFailure.js';
import type { AgentPaths } from './agentPaths.js';
import { buildCleanEnv } from './buildCleanEnv.js';
import { buildPrLink } from './buildPrLink.js';
import { CappedLog } from './CappedLog.js';
import { prepareAgentClone } from './prepareAgentClone.js';
import { publishAgentChanges } from './publishAgentChanges.js';
import { runBoundedProcess, type ProcessOutcome } from './runBoundedProcess.js';
import { GitCommandError, type GitContext } from './runGit.js';

/** One run of an agent job: the job as it stands, the prompt, and the bounds. */
export interface AgentRunRequest {
  job: Pick<AgentJobRecord, 'id' | 'repository' | 'requestedRef' | 'baseRef' | 'pushed' | 'model' | 'runs'>;
  prompt: string;
  settings: Config['agent'];
  paths: AgentPaths;
  /** Aborted on shutdown: the agent's process group is killed at once. */
  signal: AbortSignal;
  /** The agent's process group id, once it runs. */
  onSpawn?(pid: number): void;
}

/** What a run produced. `pushed` is whether the job's branch now exists on the remote. */
export type AgentRunResult =
  | { status: 'completed'; baseRef: string | null; pushed: boolean; prLink: string | null }
  | { status: 'failed'; baseRef: string | null; pushed: boolean; prLink: string | null; error: string };

/** The job `error` for an agent process that did not exit 0. */
function describeAgentOutcome(outcome: ProcessOutcome, timeoutSeconds: number): string | null {
  switch (outcome.kind) {
    case 'spawnFailed':
      return `the agent command could not be started (${outcome.code})`;
    case 'timedOut':
      return `the agent timed out after ${timeoutSeconds} s and was stopped`;
    case 'aborted':
      return 'interrupted by shutdown';
    case 'exited':
      if (outcome.code === 0) return null;
      return outcome.signal ? `the agent was killed by ${outcome.signal}` : `the agent exited with code ${outcome.code}`;
  }
}

/**
 * Runs an agent job once: scratch clone on `enclave/agent/<id>`, the configured command with
 * the prompt and a clean environment, then commit + push of whatever it changed. Output of
 * git and the agent goes to the job's log (capped). The scratch directory is deleted
 * afterwards, whatever happened; the log stays.
 */
export async function runAgentJob(request: AgentRunRequest): Promise<AgentRunResult> {
  const { job, settings, paths, signal } = request;
  const branch = agentBranchName(job.id);
  const workDir = paths.work(job.id);
  const repoDir = join(workDir, 'repo');
  const home = join(workDir, 'home');
  await rm(workDir, { recursive: true, force: true });
  await mkdir(home, { recursive: true, mode: 0o700 });
  await mkdir(paths.logRoot, { recursive: true, mode: 0o700 });
  const log = new CappedLog(paths.log(job.id), settings.maxLogBytes);
  log.write(`# enclave agent job ${job.id}, run ${job.runs}, started ${new Date().toISOString()}\n`);
  const git: GitContext = { cwd: repoDir, home, timeoutMs: settings.timeoutSeconds * 1000, log, signal };

  // Until a clone says otherwise, the branch is where the last run left it.
  let baseRef = job.baseRef;
  let pushed = job.pushed;
  const linkFor = () =>
    pushed && settings.prLinkTemplate ? buildPrLink(settings.prLinkTemplate, { repository: job.repository, base: baseRef ?? '', branch, id: job.id }) : null;
  try {
    const clone = await prepareAgentClone(git, { workDir, repository: job.repository, requestedRef: job.requestedRef, branch });
    baseRef = clone.baseRef;
    pushed = clone.continued;
    // The agent may rewrite .git/config (fsmonitor, url rewrites, …); put ours back before git runs again.
    const gitConfig = await readFile(join(repoDir, '.git', 'config'));

    log.write(`$ ${settings.command.join(' ')}\n`);
    const outcome = await runBoundedProcess({
      command: settings.command[0],
      args: settings.command.slice(1),
      cwd: repoDir,
      env: buildCleanEnv(home, { ENCLAVE_PROMPT: request.prompt, ENCLAVE_MODEL: job.model, ENCLAVE_JOB_ID: job.id }),
      input: request.prompt,
      timeoutMs: settings.timeoutSeconds * 1000,
      signal,
      onOutput: (chunk) => log.write(chunk),
      onSpawn: request.onSpawn,
    });
    const agentError = describeAgentOutcome(outcome, settings.timeoutSeconds);
    log.write(`\n# agent ${agentError ?? 'exited with code 0'}\n`);
    if (agentError) throw new AgentRunFailure(agentError);

    const gitDir = await stat(join(repoDir, '.git')).catch(() => null);
    if (!gitDir?.isDirectory()) throw new AgentRunFailure('the agent removed the clone\'s .git directory; nothing could be committed');
    await writeFile(join(repoDir, '.git', 'config'), gitConfig);
    const published = await publishAgentChanges(git, { repository: job.repository, branch, startHead: clone.startHead, prompt: request.prompt, jobId: job.id });
    pushed ||= published.pushed;
    log.write(`# completed; ${published.pushed ? `pushed ${branch}` : 'no changes to push'}\n`);
    return { status: 'completed', baseRef, pushed, prLink: linkFor() };
  } catch (err) {
    const error = signal.aborted
      ? 'interrupted by shutdown'
      : err instanceof AgentRunFailure
        ? err.message
        : err instanceof GitCommandError
          ? `${err.message}; see the job log`
          : 'internal error while running the agent; see the job log';
    if (!(err instanceof AgentRunFailure) && !signal.aborted) log.write(`\n# ${(err as Error).message}\n`);
    log.write(`# failed: ${error}\n`);
    return { status: 'failed', baseRef, pushed, prLink: linkFor(), error };
  } finally {
    await log.close();
    await rm(workDir, { recursive: true, force: true }).catch(() => {});
  }
}
