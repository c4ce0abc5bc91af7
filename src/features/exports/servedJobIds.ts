import type { ActiveSite } from '../deployments/ActiveSite.js';
import type { ExportJobRepository } from './ExportJobRepository.js';

/**
 * The jobs whose bundles the sites serve now (the newest completed job of each live domain and
 * version). The deployment feature extracted those bundles, but keeping the jobs lets an
 * operator fetch a live version again after the retention period.
 */
export function servedJobIds(jobs: ExportJobRepository, activeSite: ActiveSite): Set<string> {
  const kept = new Set<string>();
  for (const live of activeSite.all()) {
    const job = [...jobs.list()].reverse().find((j) => j.status === 'completed' && j.domain === live.domain && j.version === live.version);
    if (job) kept.add(job.id);
  }
  return kept;
}
