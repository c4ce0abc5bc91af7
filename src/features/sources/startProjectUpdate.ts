import { AppError } from '../../platform/AppError.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import type { GitSourceSync } from './GitSourceSync.js';

/**
 * The hosted "update": queue a fetch, export and deploy of every git-sourced site of the
 * project. One status per site; the first is the answer's `statusId` (the hosted project has
 * one site), all of them are in `statusIds`. 404 for an unknown project, 400 when no site of
 * it has a git source (a folder source has no deployment branch to update from).
 */
export async function startProjectUpdate(
  deps: { sites: SiteDirectory; sync: GitSourceSync },
  projectId: string,
  source: 'api' | 'dashboard',
): Promise<{ statusId: string; statusIds: string[] }> {
  if (!deps.sites.project(projectId)) throw AppError.notFound('Project not found');
  const sites = deps.sync.gitSites().filter((s) => s.projectId === projectId);
  if (sites.length === 0) throw AppError.badRequest('No site of this project has a git source to update from');
  const statusIds: string[] = [];
  for (const site of sites) statusIds.push(await deps.sync.request(site, source));
  return { statusId: statusIds[0]!, statusIds };
}
