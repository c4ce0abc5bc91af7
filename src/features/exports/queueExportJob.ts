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
  /** Export this git tree-ish of the site's repository instead of its configured ref (not a client option). */
  ref?: string;
  /** Render every page afresh, throwing the site's incremental cache away first. */
  full?: boolean;
  /** Only what this reader audience may open (see ExportJobRecord.audience). */
  audience?: ExportAudience;
}

/** A queued export, or the job that already had the domain (`queued: false`). */
export interface QueuedExport {
  job: ExportJobRecord;
  queued: boolean;
}

/**
 * Records a queued export of `site` durably. When the domain already has a job queued or
 * running (two exports of one site would race for the same output), that job is returned
 * instead and nothing is queued; the caller decides whether that is an answer or an error.
 */
export async function queueExportJob(
  deps: { jobs: ExportJobRepository; clock: Clock; defaultStrict: boolean; defaultShipWarnings: boolean },
  site: Site,
  options: ExportOptions,
): Promise<QueuedExport> {
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
    ...(options.ref ? { ref: options.ref } : {}),
    ...((options.shipWarnings ?? deps.defaultShipWarnings) ? { shipWarnings: true } : {}),
    ...(options.full ? { full: true } : {}),
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
  return busy ? { job: busy, queued: false } : { job, queued: true };
}
