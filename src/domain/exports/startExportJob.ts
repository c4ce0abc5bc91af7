import { AppError } from '../AppError.js';
import type { Clock } from '../Clock.js';
import { randomId } from '../randomId.js';
import type { ControlStore } from '../../store/ControlStore.js';
import type { ExportJobRecord } from './ExportJobRecord.js';
import type { ExportJobRepository } from './ExportJobRepository.js';

/** What a client (or the appliance itself) asks for. */
export interface ExportRequest {
  domain: string;
  version?: string;
  paths?: string[];
  strict?: boolean;
}

/** Message of the 403 for projects without the feature (worded as the hosted product does). */
export const FEATURE_OFF_MESSAGE = 'Static export requires an Enterprise plan';

/**
 * Queues an export of one of the project's sites. Refuses projects without the feature (403),
 * domains that are not the project's sites (400, the same answer whether the domain is unknown
 * or another project's, so ids of other tenants don't leak) and busy domains (409 naming the job).
 */
export async function startExportJob(
  deps: { control: ControlStore; jobs: ExportJobRepository; clock: Clock; defaultStrict: boolean },
  projectId: string,
  request: ExportRequest,
): Promise<ExportJobRecord> {
  const project = deps.control.projects.find(projectId);
  if (!project) throw AppError.notFound('Project not found');
  if (!project.features.staticExport) throw AppError.forbidden(FEATURE_OFF_MESSAGE);
  const site = deps.control.sites.find(request.domain);
  if (!site || site.projectId !== projectId) {
    throw AppError.invalid([{ message: `body.domain: '${request.domain}' is not a site of this project` }]);
  }
  const now = deps.clock.now().toISOString();
  const job: ExportJobRecord = {
    id: randomId('se_'),
    projectId,
    domain: site.domain,
    status: 'queued',
    progress: 0,
    pageCount: 0,
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    finishedAt: null,
    requestedVersion: request.version ?? null,
    version: request.version ?? null,
    paths: request.paths ?? null,
    strict: request.strict ?? deps.defaultStrict,
    error: null,
    warnings: 0,
    failedPages: 0,
    expectedPages: null,
    bundle: null,
    interruptions: 0,
  };
  const busy = await deps.jobs.insertUnlessBusy(job);
  if (busy) throw AppError.conflict(`An export of ${job.domain} is already ${busy.status}`, { jobId: busy.id });
  return job;
}
