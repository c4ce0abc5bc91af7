import type { Logger } from 'pino';
import type { Config } from '../../config/schema.js';
import type { Clock } from '../../platform/Clock.js';
import type { AgentJobStore } from './AgentJobStore.js';
import type { AgentSandbox } from './AgentSandbox.js';
import type { AgentPaths } from './agentPaths.js';
import type { AgentPreviews } from './AgentPreviews.js';

/** A run waiting for (or holding) a slot in the agent queue. */
export interface AgentRunTask {
  jobId: string;
  prompt: string;
}

/** Where agent runs are queued; the domain only needs to add to it. */
export interface AgentRunScheduler {
  enqueue(task: AgentRunTask): void;
  /** Whether a run of this job waits behind the current one. */
  hasWaiting(jobId: string): boolean;
}

/** What the agent-job operations work with. */
export interface AgentRuntime {
  store: AgentJobStore;
  settings: Config['agent'];
  paths: AgentPaths;
  /** The Landlock launcher agents run in, or null (see planAgentSandbox). */
  sandbox: AgentSandbox | null;
  /** The launcher to run an unsandboxed agent under (`--reap-only`) so its descendants end with it, or null. */
  reaper: string | null;
  clock: Clock;
  logger: Logger;
  queue: AgentRunScheduler;
  /** Branch previews of pushed jobs (absent: none). */
  previews?: AgentPreviews;
}
