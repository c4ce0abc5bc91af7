import { AgentJobStore } from './AgentJobStore.js';
import { createAgentJob, type CreateAgentJobInput } from './createAgentJob.js';
import type { AgentRuntime } from './AgentRuntime.js';
import { agentPaths } from './agentPaths.js';
import { isPathInside } from './isPathInside.js';
import { planAgentIsolation } from './planAgentIsolation.js';
import { closeDataDirToOthers } from './closeDataDirToOthers.js';
import { failAgentJob } from './failAgentJob.js';
import { executeAgentRun } from './executeAgentRun.js';
import { RateLimiter } from '../../http/RateLimiter.js';
import { agentRoutes } from './routes/agentRoutes.js';
import { agentV1Routes } from './routes/agentV1Routes.js';
import { archiveStaleAgentJobs } from './agentArchiveTask.js';
import { recoverInterruptedAgentJobs } from './agentRecovery.js';
import { AgentRunQueue } from './AgentRunQueue.js';
import type { Feature, FeatureContext } from '../Feature.js';
import type { AgentPreviews } from './AgentPreviews.js';

/** How long stop() waits for killed agents to record their end before failing them itself. */
const STOP_WAIT_MS = 3000;

/** The agent-jobs feature, plus the archive task's body for tests and operators. */
export interface AgentFeature extends Feature {
  /** Archives completed/failed jobs untouched for agent.archiveAfterDays as of `now`; returns how many. */
  archiveStaleJobs(now: Date): Promise<number>;
  /** Starts a job as the create route does (automations use it); resolves with the job. */
  startJob(projectId: string, input: CreateAgentJobInput): Promise<{ id: string }>;
  /** The status of job `id` of `projectId`, or undefined. */
  jobStatus(projectId: string, id: string): string | undefined;
}

/**
 * Builds the agent-jobs module: `/v2/agent` routes, a small in-memory run queue, boot-time
 * recovery of jobs a crash left active, and the archive cron task.
 */
// size: wires the feature's parts in order (stores, queue, routes, tasks); a straight list with no branching
export async function createAgentFeature(ctx: FeatureContext, deps: { previews?: AgentPreviews } = {}): Promise<AgentFeature> {
  const settings = ctx.config.agent;
  const logger = ctx.logger.child({ module: 'agent' });
  const store = await AgentJobStore.open(ctx.config.dataDir);
  // Captured before any route can answer: only these can belong to a previous process.
  const leftActive = new Set(store.withStatus('active').map((j) => j.id));
  const paths = agentPaths(ctx.config.dataDir, settings.workDir);
  const serverUid = process.getuid?.() ?? -1;
  const { user: agentUser, plan } = planAgentIsolation(ctx.config, serverUid);
  if ((agentUser || plan.sandbox) && isPathInside(ctx.config.dataDir, paths.treeRoot)) {
    // Every run would fail: the agent's user can't enter the data directory, nor may a sandboxed agent, by design.
    const who = agentUser ? `the agent's user (uid ${agentUser.uid}) cannot enter` : 'the sandboxed agent may not reach';
    throw new Error(`agent.workDir (${paths.treeRoot}) is inside the data directory, which ${who}; choose a directory outside it`);
  }
  if (plan.warning) logger.warn({ sandbox: settings.sandbox }, plan.warning);
  for (const note of plan.notes) logger.info(note);
  if (plan.sandbox) logger.info({ abi: plan.sandbox.abi, readOnly: plan.sandbox.readOnly }, 'agents run in a Landlock sandbox');
  const base = { store, settings, paths, sandbox: plan.sandbox, reaper: plan.reaper, clock: ctx.clock, logger, previews: deps.previews };
  const queue: AgentRunQueue = new AgentRunQueue(
    settings.concurrency,
    (task, signal) => executeAgentRun(base, task, signal, (jobId) => queue.hasWaiting(jobId)),
    logger,
  );
  const runtime: AgentRuntime = { ...base, queue };
  const limiter = new RateLimiter('agent', settings.requestsPerHour, 60 * 60 * 1000, ctx.clock);
  const archiveStaleJobs = (now: Date) => archiveStaleAgentJobs(store, now, settings.archiveAfterDays);

  return {
    name: 'agent',
    routes: [...agentRoutes({ runtime, limiter }), ...agentV1Routes({ runtime, limiter })],
    archiveStaleJobs,
    startJob: (projectId, input) => createAgentJob(runtime, projectId, input),
    jobStatus: (projectId, id) => store.find(projectId, id)?.status,
    tasks: [
      {
        name: 'agent-archive',
        cron: settings.archiveCron,
        async run(now) {
          const archived = await archiveStaleJobs(now);
          if (archived > 0) logger.info({ archived }, 'archived agent jobs');
        },
      },
    ],
    readiness() {
      const { running, waiting } = queue.size;
      if (settings.command.length === 0) return { status: 'ok', detail: 'agent jobs disabled (agent.command is empty)' };
      return { status: 'ok', running, waiting };
    },
    async start() {
      if (settings.command.length > 0 && agentUser) await closeDataDirToOthers(ctx.config.dataDir, logger);
      const recovered = await recoverInterruptedAgentJobs(store, paths, leftActive, ctx.clock.now());
      if (recovered.length > 0)
        logger.warn({ jobIds: recovered }, 'agent jobs left active by a previous run were marked failed (interrupted)');
    },
    async stop() {
      const unfinished = new Set(await queue.stop(STOP_WAIT_MS));
      // Runs that did not record their end in time, and runs that never started, end here.
      await store.updateWhere(
        (j) => j.status === 'active' && unfinished.has(j.id),
        (j) => failAgentJob(j, 'interrupted by shutdown', ctx.clock.now()),
      );
      await store.flush();
    },
  };
}
