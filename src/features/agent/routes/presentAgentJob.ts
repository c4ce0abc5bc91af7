import { z } from 'zod';
import { AGENT_JOB_STATUSES, type AgentJobRecord } from '../AgentJobRecord.js';
import { redactCredentials } from '../../../platform/git/redactCredentials.js';

/** The public shape of an agent job (SPEC section 3). */
export const agentJobSchema = z.object({
  id: z.string().describe('aj_ + 16 hex'),
  status: z.enum(AGENT_JOB_STATUSES),
  source: z.object({
    repository: z.string().describe('The repository (credentials in a URL are never shown).'),
    ref: z.string().nullable().describe('The branch the agent works on; null when none exists on the remote.'),
  }),
  model: z.string(),
  prLink: z.url().nullable().describe('Link to open the pull/merge request, from agent.prLinkTemplate.'),
  previewUrl: z
    .url()
    .nullable()
    .describe(
      'Enclave: the preview of the pushed branch, when a git-sourced site of the project builds from the repository (null while active).',
    ),
  createdAt: z.iso.datetime(),
  archivedAt: z.iso.datetime().nullable(),
  error: z.string().optional().describe('Why the job failed (only when status is failed).'),
});

/** One page of agent jobs. */
export const agentJobPageSchema = z.object({
  jobs: z.array(agentJobSchema),
  nextCursor: z.string().nullable(),
  hasMore: z.boolean(),
});

/** Whitelists what clients see of a job: no project, pid, counters or raw repository URL. */
export function presentAgentJob(job: AgentJobRecord): z.infer<typeof agentJobSchema> {
  return {
    id: job.id,
    status: job.status,
    source: { repository: redactCredentials(job.repository), ref: job.branch },
    model: job.model,
    // The hosted API: no pull request link while the agent is still at work.
    prLink: job.status === 'active' ? null : job.prLink,
    previewUrl: job.status === 'active' ? null : (job.previewUrl ?? null),
    createdAt: job.createdAt,
    archivedAt: job.archivedAt,
    ...(job.status === 'failed' ? { error: job.error ?? 'failed' } : {}),
  };
}
