import type { Clock } from '../../platform/Clock.js';
import { stopOrphanedWorker } from './stopOrphanedWorker.js';
import type { ExportJobRepository } from './ExportJobRepository.js';

/** A job cut short by this many restarts is given up instead of resumed again. */
export const MAX_INTERRUPTIONS = 3;

/** Error recorded on a job given up after repeated restarts. */
export const INTERRUPTED_MESSAGE = 'interrupted by a restart';

/**
 * Boot-time recovery of jobs a crash left `running`. Policy: **resume** — the job goes back to
 * `queued` and runs again from the start (rendering is deterministic and its partial output is
 * discarded), so a restart costs time, not the job. A job interrupted `MAX_INTERRUPTIONS` times
 * is marked `failed` with "interrupted by a restart" instead, so a job that somehow brings the
 * appliance down can't loop forever. Queued jobs simply stay queued.
 */
export async function recoverInterruptedJobs(jobs: ExportJobRepository, clock: Clock): Promise<{ resumed: string[]; failed: string[] }> {
  // A worker of the crashed server may still be writing into the job's directories; it must be
  // gone before the job runs again.
  for (const job of jobs.list()) if (job.status === 'running' && job.workerPid) await stopOrphanedWorker(job.workerPid);
  return jobs.recoverInterrupted(clock.now(), MAX_INTERRUPTIONS, INTERRUPTED_MESSAGE);
}
