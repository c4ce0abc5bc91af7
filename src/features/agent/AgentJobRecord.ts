/** Every state an agent job can be in (SPEC section 3). */
export const AGENT_JOB_STATUSES = ['active', 'completed', 'archived', 'failed'] as const;

/** One of AGENT_JOB_STATUSES. */
export type AgentJobStatus = (typeof AGENT_JOB_STATUSES)[number];

/**
 * An agent job as stored in `agent.json`. Prompts are deliberately not stored: they may hold
 * whatever the caller pasted in, and a run that did not finish is never resumed anyway.
 */
export interface AgentJobRecord {
  id: string;
  projectId: string;
  status: AgentJobStatus;
  /** Where the job clones from and pushes to, exactly as given (may hold credentials; never shown). */
  repository: string;
  /** The ref the job starts from, as requested; null means the repository's default branch. */
  requestedRef: string | null;
  /** The base branch once resolved by the first clone (for `{base}` in PR links). */
  baseRef: string | null;
  /** The branch the agent works on: set while active and once pushed, else null. */
  branch: string | null;
  /** True once the branch exists on the remote (a follow-up then starts from it). */
  pushed: boolean;
  model: string;
  prLink: string | null;
  /** The preview of the pushed branch (absent in records older than previews). */
  previewUrl?: string | null;
  error: string | null;
  /** How many times the agent has been started for this job (1 + follow-up messages). */
  runs: number;
  /** Process group of the running agent, so a restart can stop an agent a crash left behind. */
  pid: number | null;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
}

/** Where one page of a listing starts: just after this job in newest-first order. */
export interface AgentJobCursor {
  createdAt: string;
  id: string;
}

/** The branch an agent job works on. */
export function agentBranchName(jobId: string): string {
  return `enclave/agent/${jobId}`;
}
