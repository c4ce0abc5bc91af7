import type { CommitLine } from '../sources/listCommits.js';

/** What automations need from the agent and sources features (handed over by app/). */
export interface AutomationPorts {
  /** Starts an agent job (the agent feature's create operation); resolves with its id. */
  startAgentJob(projectId: string, input: { prompt: string; source?: { repository: string; ref?: string } }): Promise<{ id: string }>;
  /** The status of an agent job, or undefined when it is gone. */
  agentJobStatus(projectId: string, jobId: string): string | undefined;
  /** Fetches a git-sourced site and lists the commits since `since`; null for a folder source. */
  commitsSince(domain: string, since: string | null): Promise<{ head: string; commits: CommitLine[] } | null>;
}
