import { chmod, lchown, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config/schema.js';
import { agentBranchName, type AgentJobRecord } from './AgentJobRecord.js';
import { type AgentSandbox, wrapInSandbox } from './AgentSandbox.js';
import { AgentRunFailure } from './AgentRunFailure.js';
import type { AgentPaths } from './agentPaths.js';
import { assertPlainGitDir } from '../../platform/git/assertPlainGitDir.js';
import { buildCleanEnv } from '../../platform/git/buildCleanEnv.js';
import { buildPrLink } from './buildPrLink.js';
import { CappedLog } from './CappedLog.js';
import { copyWorkTree } from './copyWorkTree.js';
import { findProgram } from './findProgram.js';
import { isolateAgentCommand } from './isolateAgentCommand.js';
import { killJobProcesses } from './killJobProcesses.js';
import { prepareAgentClone } from './prepareAgentClone.js';
import { publishAgentChanges } from './publishAgentChanges.js';
import { resolveAgentUser, type AgentUser } from './resolveAgentUser.js';
import { runBoundedProcess, type ProcessOutcome } from '../../platform/git/runBoundedProcess.js';
import { GitCommandError, gitPins, type GitContext } from '../../platform/git/runGit.js';

/** On shutdown, how long the launcher has after SIGTERM (it gives the agent 0.5 s, then kills every descendant) before SIGKILL. */
const ABORT_GRACE_MS = 1500;

/** The job's error for a clone git must not be run in; the agent's wording says nothing left the appliance. */
const refuseUnpushed = (reason: string) =>
  new AgentRunFailure(reason.endsWith('refused') ? `${reason}, nothing was pushed` : `${reason}; nothing was pushed`);

/** One run of an agent job: the job as it stands, the prompt, and the bounds. */
export interface AgentRunRequest {
  job: Pick<AgentJobRecord, 'id' | 'repository' | 'requestedRef' | 'baseRef' | 'pushed' | 'model' | 'runs'>;
  prompt: string;
  settings: Config['agent'];
  paths: AgentPaths;
  /** The Landlock launcher to run the agent in, or null. */
  sandbox: AgentSandbox | null;
  /** The launcher to run an unsandboxed agent under (`--reap-only`), or null (absent: none). */
  reaper?: string | null;
  /** Aborted on shutdown: the launcher gets a moment to end the agent's descendants, then the group is killed. */
  signal: AbortSignal;
  /** The agent's process group id, once it runs. */
  onSpawn?(pid: number): void;
  /** Where the pushed branch's preview will be (its commit and PR link name it), or null. */
  previewUrl?: string | null;
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

/** The job log's account of who the agent runs as and how it is confined. */
function describeConfinement(user: AgentUser | null, pidNamespace: boolean, sandbox: AgentSandbox | null): string {
  const who = user ? `uid ${user.uid} gid ${user.gid}` : "the server's user";
  const pids = pidNamespace ? ', in its own PID namespace' : '';
  if (sandbox) return `# as ${who}${pids}, in a Landlock sandbox (ABI ${sandbox.abi})\n`;
  // Said on every run that is exposed, so the job's own record shows it, not just a startup warning.
  return user ? `# as ${who}${pids}\n` : `# as ${who}${pids}, unsandboxed: it can read the server's environment and data directory\n`;
}

/** Runs the configured command in the agent's copy, as the agent's user, and ends everything it started. */
async function runAgentCommand(
  request: AgentRunRequest,
  dirs: { cwd: string; home: string; tmp: string; tree: string },
  log: CappedLog,
): Promise<ProcessOutcome> {
  const { job, settings, sandbox } = request;
  const serverUid = process.getuid?.() ?? -1;
  const user = resolveAgentUser(settings.runAsUser, serverUid);
  const env = buildCleanEnv(dirs.home, {
    ENCLAVE_PROMPT: request.prompt,
    ENCLAVE_MODEL: job.model,
    ENCLAVE_JOB_ID: job.id,
    // A sandboxed agent may write nowhere else, so /tmp would fail it.
    ...(sandbox ? { TMPDIR: dirs.tmp } : {}),
  });
  if (!findProgram(settings.command[0], env.PATH)) return { kind: 'spawnFailed', code: 'ENOENT' };
  // The launcher (sandbox or not) stays as the agent's parent and ends every descendant with it:
  // a `setsid env -i` child escapes both the process group and the /proc scan for the job id.
  const reaper = sandbox ? sandbox.launcher : (request.reaper ?? null);
  const argv = sandbox
    ? wrapInSandbox(sandbox, dirs.tree, settings.command)
    : reaper
      ? [reaper, '--reap-only', '--', ...settings.command]
      : settings.command;
  const spawnAs = isolateAgentCommand(argv, user, serverUid);
  log.write(`$ ${settings.command.join(' ')}\n${describeConfinement(user, spawnAs.pidNamespace, sandbox)}`);
  try {
    return await runBoundedProcess({
      command: spawnAs.command,
      args: spawnAs.args,
      uid: spawnAs.uid,
      gid: spawnAs.gid,
      cwd: dirs.cwd,
      env,
      input: request.prompt,
      timeoutMs: settings.timeoutSeconds * 1000,
      signal: request.signal,
      onOutput: (chunk) => log.write(chunk),
      onSpawn: request.onSpawn,
      // SIGKILL would stop the launcher before it could end the agent's descendants.
      ...(reaper ? { abortGraceMs: ABORT_GRACE_MS } : {}),
    });
  } finally {
    // Children that left the process group (setsid, double fork) still carry the job id.
    const stragglers = await killJobProcesses(job.id);
    if (stragglers > 0) log.write(`\n# killed ${stragglers} process(es) the agent left running\n`);
  }
}

/** Empties the appliance's clone except `.git`, so the agent's tree (deletions included) can be copied in. */
async function clearWorkTree(repoDir: string): Promise<void> {
  for (const name of await readdir(repoDir)) if (name !== '.git') await rm(join(repoDir, name), { recursive: true, force: true });
}

/**
 * Runs an agent job once: the appliance clones the repository on `enclave/agent/<id>`, hands
 * the agent a copy (owned by the agent's user, outside the data directory), runs the
 * configured command there, then copies the agent's work tree — never its `.git` — back into
 * its own clone and commits and pushes from that. Output of git and the agent goes to the
 * job's log (capped). Both scratch directories are deleted afterwards; the log stays.
 */
// size: the job's steps in order (clone, run, commit, push, clean up) sharing one log and one abort signal
export async function runAgentJob(request: AgentRunRequest): Promise<AgentRunResult> {
  const { job, settings, paths, signal } = request;
  const branch = agentBranchName(job.id);
  const workDir = paths.work(job.id);
  const repoDir = join(workDir, 'repo');
  const treeDir = paths.tree(job.id);
  const agentRepo = join(treeDir, 'repo');
  const agentHome = join(treeDir, 'home');
  const agentTmp = join(treeDir, 'tmp');
  const user = resolveAgentUser(settings.runAsUser, process.getuid?.() ?? -1);
  await Promise.all([rm(workDir, { recursive: true, force: true }), rm(treeDir, { recursive: true, force: true })]);
  await mkdir(join(workDir, 'home'), { recursive: true, mode: 0o700 });
  await mkdir(paths.logRoot, { recursive: true, mode: 0o700 });
  // Others may pass through the root (to their own run's directory) but not list it.
  await mkdir(paths.treeRoot, { recursive: true, mode: 0o711 });
  await chmod(paths.treeRoot, 0o711);
  await mkdir(agentHome, { recursive: true, mode: 0o700 });
  await mkdir(agentRepo, { mode: 0o700 });
  await mkdir(agentTmp, { mode: 0o700 });
  const log = new CappedLog(paths.log(job.id), settings.maxLogBytes);
  log.write(`# enclave agent job ${job.id}, run ${job.runs}, started ${new Date().toISOString()}\n`);
  const git: GitContext = {
    cwd: repoDir,
    home: join(workDir, 'home'),
    timeoutMs: settings.timeoutSeconds * 1000,
    log,
    signal,
    pins: gitPins(job.repository, []),
  };

  // Until a clone says otherwise, the branch is where the last run left it.
  let baseRef = job.baseRef;
  let pushed = job.pushed;
  const linkFor = () =>
    pushed && settings.prLinkTemplate
      ? buildPrLink(settings.prLinkTemplate, {
          repository: job.repository,
          base: baseRef ?? '',
          branch,
          id: job.id,
          preview: request.previewUrl ?? '',
        })
      : null;
  try {
    const clone = await prepareAgentClone(git, { workDir, repository: job.repository, requestedRef: job.requestedRef, branch });
    baseRef = clone.baseRef;
    pushed = clone.continued;
    // Kept to put back should an agent running as the server's user reach into our clone.
    const gitConfig = await readFile(join(repoDir, '.git', 'config'));
    await copyWorkTree(repoDir, agentRepo, { skipTopGit: false, refuseNestedGit: false, owner: user });
    if (user) for (const dir of [treeDir, agentHome, agentTmp]) await lchown(dir, user.uid, user.gid);

    const outcome = await runAgentCommand(request, { cwd: agentRepo, home: agentHome, tmp: agentTmp, tree: treeDir }, log);
    const agentError = describeAgentOutcome(outcome, settings.timeoutSeconds);
    log.write(`\n# agent ${agentError ?? 'exited with code 0'}\n`);
    if (agentError) throw new AgentRunFailure(agentError);

    await assertPlainGitDir(agentRepo, 'the agent', refuseUnpushed);
    await assertPlainGitDir(repoDir, 'a process of the agent', refuseUnpushed);
    await clearWorkTree(repoDir);
    const filterDrivers = await copyWorkTree(agentRepo, repoDir, { skipTopGit: true, refuseNestedGit: true });
    await writeFile(join(repoDir, '.git', 'config'), gitConfig);
    const published = await publishAgentChanges(
      { ...git, pins: gitPins(job.repository, filterDrivers) },
      {
        repository: job.repository,
        branch,
        startHead: clone.startHead,
        prompt: request.prompt,
        jobId: job.id,
        previewUrl: request.previewUrl,
      },
    );
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
    await Promise.all([
      rm(workDir, { recursive: true, force: true }).catch(() => {}),
      rm(treeDir, { recursive: true, force: true }).catch(() => {}),
    ]);
  }
}
