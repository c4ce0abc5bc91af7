import { AppError } from '../../platform/AppError.js';
import { agentBranchName, type AgentJobRecord } from './AgentJobRecord.js';
import type { AgentRuntime } from './AgentRuntime.js';
import { requireAgentCommand } from './createAgentJob.js';

/**
 * A follow-up prompt: the job goes back to `active` and the agent runs again on the same
 * branch. An archived job is closed (409). A job still running takes the message too, as the
 * hosted API does ("processed asynchronously"): the queue runs it after the current run, never
 * beside it, since two runs on one branch at once would race each other's pushes.
 */
export async function sendAgentMessage(runtime: AgentRuntime, projectId: string, jobId: string, prompt: string): Promise<AgentJobRecord> {
  requireAgentCommand(runtime);
  const job = runtime.store.find(projectId, jobId);
  if (!job) throw AppError.notFound('Agent job not found');
  if (job.status === 'archived') throw AppError.conflict('Agent job is archived; start a new job instead', { status: job.status });
  // Checked and changed in the same tick, so two messages racing can't both start a run.
  const updated = runtime.store.update(job.id, (j) => {
    j.status = 'active';
    j.error = null;
    j.runs += 1;
    j.branch = agentBranchName(j.id);
    j.updatedAt = runtime.clock.now().toISOString();
  });
  const record = (await updated)!;
  runtime.queue.enqueue({ jobId: job.id, prompt });
  return record;
}
