import { agentBranchName } from './AgentJobRecord.js';
import type { AgentRunTask, AgentRuntime } from './AgentRuntime.js';
import { runAgentJob, type AgentRunResult } from './runAgentJob.js';

/**
 * Runs a queued agent task and records the outcome on the job. The job record owns the
 * state: a run whose job is no longer `active` (failed by shutdown meanwhile) does nothing.
 * When a follow-up message waits behind this run (`followUpWaiting`), the job stays `active`
 * and the follow-up's run decides how it ends.
 */
export async function executeAgentRun(
  runtime: Omit<AgentRuntime, 'queue'>,
  task: AgentRunTask,
  signal: AbortSignal,
  followUpWaiting: (jobId: string) => boolean = () => false,
): Promise<void> {
  const { store, clock, logger } = runtime;
  const job = store.withStatus('active').find((j) => j.id === task.jobId);
  if (!job) return;
  const branch = agentBranchName(job.id);
  const previewUrl = runtime.previews?.urlFor(job.projectId, job.repository, branch) ?? null;
  const result: AgentRunResult = await runAgentJob({
    job,
    prompt: task.prompt,
    settings: runtime.settings,
    paths: runtime.paths,
    sandbox: runtime.sandbox,
    reaper: runtime.reaper,
    signal,
    previewUrl,
    onSpawn(pid) {
      store.update(job.id, (j) => (j.pid = pid)).catch((err) => logger.warn({ err, jobId: job.id }, 'could not record the agent pid'));
    },
  }).catch((err: unknown) => {
    // Setting up the scratch directory failed (disk full, permissions): the job must still end.
    logger.error({ err, jobId: job.id }, 'agent run could not start');
    return {
      status: 'failed',
      baseRef: job.baseRef,
      pushed: job.pushed,
      prLink: job.prLink,
      error: 'internal error while preparing the run',
    };
  });
  await store.update(job.id, (j) => {
    if (j.status !== 'active') return; // already failed by a shutdown that could not wait
    j.status = followUpWaiting(j.id) ? 'active' : result.status;
    j.baseRef = result.baseRef ?? j.baseRef;
    j.pushed = result.pushed;
    j.branch = result.pushed ? agentBranchName(j.id) : null;
    j.prLink = result.prLink;
    j.previewUrl = result.pushed ? previewUrl : null;
    j.error = result.status === 'failed' && j.status === 'failed' ? result.error : null;
    j.pid = null;
    j.updatedAt = clock.now().toISOString();
  });
  if (result.status === 'completed' && result.pushed && previewUrl) {
    // Not awaited: the preview builds in the site's turn; its status says how it went.
    runtime.previews?.request(job.projectId, job.repository, branch, job.id).catch((err: unknown) => {
      logger.warn({ err, jobId: job.id }, 'could not ask for a preview of the pushed branch');
    });
  }
  logger.info(
    { jobId: job.id, status: result.status, pushed: result.pushed, ...(result.status === 'failed' ? { error: result.error } : {}) },
    'agent run finished',
  );
}
