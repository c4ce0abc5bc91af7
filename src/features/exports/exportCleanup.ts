import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExportJobRecord } from './ExportJobRecord.js';
import type { ExportJobRepository } from './ExportJobRepository.js';
import { bundlesRoot, exportPaths, exportsRoot } from './ExportPaths.js';
import { DAY_MS } from '../../platform/Clock.js';

/** What the retention task removed. */
export interface ExportCleanupResult {
  removedJobs: string[];
  /** Directories with no job record at all (left by a crash or an older release). */
  removedOrphans: string[];
}

const JOB_DIR = /^se_[0-9a-f]{16}$/;

/**
 * The retention task body: deletes finished jobs (record, zip, scratch files) that ended more
 * than `retentionDays` before `now`, and job directories no record knows. Queued and running
 * jobs are never touched, nor any job `keep` protects (the bundle being served). A plain
 * function of `now`, so tests drive it with a manual clock; cron only calls it.
 */
export async function cleanupExpiredExports(
  deps: { jobs: ExportJobRepository; dataDir: string; retentionDays: number; keep?: (job: ExportJobRecord) => boolean },
  now: Date,
): Promise<ExportCleanupResult> {
  const cutoff = now.getTime() - deps.retentionDays * DAY_MS;
  const expired = deps.jobs
    .list()
    .filter(
      (j) => (j.status === 'completed' || j.status === 'failed') && Date.parse(j.finishedAt ?? j.createdAt) < cutoff && !deps.keep?.(j),
    )
    .map((j) => j.id);
  for (const id of expired) {
    const paths = exportPaths(deps.dataDir, id);
    await rm(paths.bundleDir, { recursive: true, force: true });
    await rm(paths.workDir, { recursive: true, force: true });
  }
  // The record goes last: if deleting files fails, the next run still knows what to retry.
  await deps.jobs.remove(new Set(expired));

  const removedOrphans: string[] = [];
  for (const root of [bundlesRoot(deps.dataDir), exportsRoot(deps.dataDir)]) {
    const names = await readdir(root).catch(() => [] as string[]);
    for (const name of names) {
      // Only job directories: other features may keep their own files beside them.
      if (!JOB_DIR.test(name) || deps.jobs.find(name)) continue;
      await rm(join(root, name), { recursive: true, force: true });
      removedOrphans.push(join(root, name));
    }
  }
  return { removedJobs: expired, removedOrphans };
}
