import { agentBranchName, type AgentJobRecord } from './AgentJobRecord.js';

/**
 * Ends a job as `failed` outside a normal run (restart, shutdown). The branch stays visible
 * only if an earlier run pushed it; the PR link of that push stays valid too.
 */
export function failAgentJob(job: AgentJobRecord, error: string, now: Date): void {
  job.status = 'failed';
  job.error = error;
  job.pid = null;
  job.branch = job.pushed ? agentBranchName(job.id) : null;
  job.updatedAt = now.toISOString();
}
