import { readdir, readlink, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentJobStore } from './AgentJobStore.js';
import type { AgentPaths } from './agentPaths.js';
import { failAgentJob } from './failAgentJob.js';
import { killJobProcesses } from './killJobProcesses.js';
import { killProcessGroup } from '../../platform/git/runBoundedProcess.js';

/** How long a leftover launcher gets after SIGTERM to end the agent's descendants. */
const LAUNCHER_GRACE_MS = 1500;

/**
 * Stops an agent a crashed server left running. The pid alone could have been reused by an
 * unrelated process, so the group is killed only if that process still works inside this
 * job's scratch directory (Linux /proc; elsewhere nothing is killed).
 */
async function killLeftoverAgent(pid: number, workDir: string): Promise<boolean> {
  const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => null);
  if (!cwd || (cwd !== workDir && !cwd.startsWith(`${workDir}/`))) return false;
  // SIGTERM first: the agent launcher then ends every descendant (setsid ones too) before it exits.
  killProcessGroup(pid, 'SIGTERM');
  for (let waited = 0; waited < LAUNCHER_GRACE_MS && (await readlink(`/proc/${pid}/cwd`).catch(() => null)); waited += 50) await sleep(50);
  killProcessGroup(pid, 'SIGKILL');
  return true;
}

/**
 * Boot-time recovery: jobs that were `active` when the data directory was opened belong to a
 * process that is gone (crash, kill, power loss). Their agents are stopped, the jobs become
 * `failed` with `interrupted`, and scratch clones no live run owns are deleted. Returns the job ids.
 */
export async function recoverInterruptedAgentJobs(
  store: AgentJobStore,
  paths: AgentPaths,
  jobIds: ReadonlySet<string>,
  now: Date,
): Promise<string[]> {
  const interrupted = store.withStatus('active').filter((j) => jobIds.has(j.id));
  for (const job of interrupted) {
    if (job.pid) await killLeftoverAgent(job.pid, paths.tree(job.id));
    await killJobProcesses(job.id); // whatever escaped the group (setsid) still carries the job id
  }
  await store.updateWhere(
    (j) => j.status === 'active' && jobIds.has(j.id),
    (j) => failAgentJob(j, 'interrupted', now),
  );
  // Scratch clones of dead runs go; a run started since boot keeps its own.
  const live = new Set(store.withStatus('active').map((j) => j.id));
  for (const root of [paths.workRoot, paths.treeRoot]) {
    const leftovers = await readdir(root).catch(() => [] as string[]);
    for (const name of leftovers) if (!live.has(name)) await rm(join(root, name), { recursive: true, force: true });
  }
  return interrupted.map((j) => j.id);
}
