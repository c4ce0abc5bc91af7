import { AppError } from '../../platform/AppError.js';
import { randomId } from '../../platform/randomId.js';
import { agentBranchName, type AgentJobRecord } from './AgentJobRecord.js';
import type { AgentRuntime } from './AgentRuntime.js';

/** What a client asks for when starting an agent job. */
export interface CreateAgentJobInput {
  prompt: string;
  source?: { repository?: string; ref?: string };
  model?: string;
}

/** 503 when the operator has not configured an agent: the feature exists but is switched off. */
export function requireAgentCommand(runtime: Pick<AgentRuntime, 'settings'>): void {
  if (runtime.settings.command.length === 0) {
    throw AppError.unavailable('Agent jobs are not configured on this server (set agent.command)');
  }
}

/**
 * Records a new `active` job durably and queues its first run; the run happens in the
 * background, so the caller gets the job at once and polls it.
 */
export async function createAgentJob(runtime: AgentRuntime, projectId: string, input: CreateAgentJobInput): Promise<AgentJobRecord> {
  requireAgentCommand(runtime);
  const repository = input.source?.repository ?? runtime.settings.repository;
  if (!repository) {
    throw AppError.invalid([
      { message: 'body.source.repository: required, because this server has no default repository (agent.repository)' },
    ]);
  }
  const now = runtime.clock.now().toISOString();
  const id = randomId('aj_');
  const job: AgentJobRecord = {
    id,
    projectId,
    status: 'active',
    repository,
    requestedRef: input.source?.ref ?? null,
    baseRef: null,
    branch: agentBranchName(id),
    pushed: false,
    model: input.model ?? runtime.settings.model,
    prLink: null,
    error: null,
    runs: 1,
    pid: null,
    createdAt: now,
    updatedAt: now,
    archivedAt: null,
  };
  await runtime.store.insert(job);
  runtime.queue.enqueue({ jobId: id, prompt: input.prompt });
  return job;
}
