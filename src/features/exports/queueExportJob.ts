import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import { randomId } from '../../platform/randomId.js';
import type { Site } from '../control/SiteDirectory.js';
import type { ExportAudience, ExportJobRecord } from './ExportJobRecord.js';
import type { ExportJobRepository } from './ExportJobRepository.js';

/** Options of one export. */
export interface ExportOptions {
  version?: string;
  paths?: string[];
  strict?: boolean;
  keepRemoteAssets?: boolean;
  /** Pages that lost content keep rendering, with a warning, instead of failing. */
  shipWarnings?: boolean;
  /** Only what this reader audience may open (see ExportJobRecord.audience). */
  audience?: ExportAudience;
}

/**
 * Records a queued export of `site` durably; 409 naming the job when the domain already has
 * one queued or running (two exports of one site would race for the same output).
 */
export async function queueExportJob(
  deps: { jobs: ExportJobRepository; clock: Clock; defaultStrict: boolean; defaultShipWarnings: boolean },
  site: Site,
  options: ExportOptions,
): Promise<ExportJobRecord> {
  const now = deps.clock.now().toISOString();
  const job: ExportJobRecord = {
    id: randomId('se_'),
    projectId: site.projectId,
    domain: site.domain,
    status: 'queued',
    progress: 0,
    pageCount: 0,
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    finishedAt: null,
    requestedVersion: options.version ?? null,
    version: options.version ?? null,
    paths: options.paths ?? null,
    strict: options.strict ?? deps.defaultStrict,
    ...(options.keepRemoteAssets ? { keepRemoteAssets: true } : {}),
    ...((options.shipWarnings ?? deps.defaultShipWarnings) ? { shipWarnings: true } : {}),
    ...(options.audience ? { audience: options.audience } : {}),
    error: null,
    warnings: [],
    warningCount: 0,
    warningGroups: [],
    failedPages: [],
    expectedPages: null,
    bundle: null,
    interruptions: 0,
  };
  const busy = await deps.jobs.insertUnlessBusy(job);
  if (busy) throw AppError.conflict(`An export of ${job.domain} is already ${busy.status}`, { jobId: busy.id });
  return job;
}
