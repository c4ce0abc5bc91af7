import { z } from 'zod';
import type { AgentJobRecord } from '../AgentJobRecord.js';
import { agentBranchName } from '../AgentJobRecord.js';
import { presentAgentJob } from './presentAgentJob.js';

/** The deprecated v1 shape of an agent job (the hosted "session"). */
export const agentSessionSchema = z.object({
  sessionId: z.string().describe('The job id (aj_…)'),
  subdomain: z.string().describe('The project the job belongs to (Enclave has no subdomains; the project id stands in)'),
  branch: z.string().describe('The branch the agent works on (always enclave/agent/<id> in Enclave)'),
  haulted: z.boolean().describe('True once the job is no longer active (the hosted spelling)'),
  haultReason: z.enum(['completed', 'error']).optional().describe('Why it stopped; absent while active'),
  pullRequestLink: z.url().optional().describe('Link to open the pull request, once there is one'),
  messageToUser: z.string().describe('What happened, in a sentence'),
  todos: z
    .array(z.object({ content: z.string(), status: z.string(), priority: z.string(), id: z.string() }))
    .describe('Always empty: Enclave agents keep no todo list'),
  createdAt: z.iso.datetime(),
});

function messageOf(job: AgentJobRecord, prLink: string | null): string {
  if (job.status === 'active') return 'The agent is working.';
  if (job.error) return `The agent failed: ${job.error}`;
  return prLink ? `Changes pushed to ${agentBranchName(job.id)}.` : 'The agent made no changes.';
}

/** A job as the v1 endpoints show it, built from the v2 presentation (same whitelist). */
export function presentAgentSession(job: AgentJobRecord): z.infer<typeof agentSessionSchema> {
  const shown = presentAgentJob(job);
  return {
    sessionId: shown.id,
    subdomain: job.projectId,
    branch: shown.source.ref ?? agentBranchName(job.id),
    haulted: job.status !== 'active',
    ...(job.status === 'active' ? {} : { haultReason: job.error ? ('error' as const) : ('completed' as const) }),
    ...(shown.prLink ? { pullRequestLink: shown.prLink } : {}),
    messageToUser: messageOf(job, shown.prLink),
    todos: [],
    createdAt: shown.createdAt,
  };
}
