import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import { findUnknownPages } from '../../render/index.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import type { ExportJobRecord } from './ExportJobRecord.js';
import type { ExportJobRepository } from './ExportJobRepository.js';
import { queueExportJob, type ExportOptions } from './queueExportJob.js';

/** Message of the 403 for projects without the feature (worded as the hosted product does). */
export const FEATURE_OFF_MESSAGE = 'Static export requires an Enterprise plan';

/**
 * 400 naming every requested path that is no page of the source, as the hosted API answers.
 * A source that can't be read is left to the export, which fails with the reason; a site built
 * at a git ref is checked out by the worker, which reports such paths as warnings.
 */
async function refuseUnknownPages(sourceDir: string, paths: string[]): Promise<void> {
  const unknown = await findUnknownPages(sourceDir, paths).catch(() => []);
  if (unknown.length > 0)
    throw AppError.invalid(
      unknown.map((p) => ({ message: `body.paths: '${p}' is not a page of this site` })),
      `${unknown.length} of the requested paths ${unknown.length === 1 ? 'is' : 'are'} no page of this site`,
    );
}

/**
 * A client's export request: refuses projects without the feature (403) and domains that are
 * not the project's sites (400 — the same answer whether the domain is unknown or another
 * project's, so other tenants' sites don't leak), then queues the job. A domain that already has a job queued or running gets that job back
 * (the hosted API defines no 409 here: a script that starts an export twice simply follows
 * the one job).
 */
export async function startExportJob(
  deps: { sites: SiteDirectory; jobs: ExportJobRepository; clock: Clock; defaultStrict: boolean; defaultShipWarnings: boolean },
  projectId: string,
  request: ExportOptions & { domain: string },
): Promise<ExportJobRecord> {
  const project = deps.sites.project(projectId);
  if (!project) throw AppError.notFound('Project not found');
  if (!project.features.staticExport) throw AppError.forbidden(FEATURE_OFF_MESSAGE);
  const site = deps.sites.find(request.domain);
  if (!site || site.projectId !== projectId) {
    throw AppError.invalid([{ message: `body.domain: '${request.domain}' is not a site of this project` }]);
  }
  if (request.paths && !site.ref) await refuseUnknownPages(site.source, request.paths);
  return (await queueExportJob(deps, site, request)).job;
}
