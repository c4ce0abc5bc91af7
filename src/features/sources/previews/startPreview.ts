import { AppError } from '../../../platform/AppError.js';
import type { Site, SiteDirectory } from '../../control/SiteDirectory.js';
import type { UpdateSource } from '../UpdateStatusRecord.js';
import type { GitPreviews, RequestedPreview } from './GitPreviews.js';

/**
 * The hosted "preview": queue a fetch, export and deploy of `branch` of the project's git
 * source as a preview. 404 for an unknown project (or a named site not in it), 400 when the
 * project has no git-sourced site, or several and the request names none. Whether the branch
 * exists is the remote's to say: the status reports it, as the hosted API reports build errors.
 */
export async function startPreview(
  deps: { sites: SiteDirectory; previews: GitPreviews },
  projectId: string,
  input: { branch: string; domain?: string },
  source: UpdateSource,
): Promise<RequestedPreview> {
  if (!deps.sites.project(projectId)) throw AppError.notFound('Project not found');
  const gitSites = deps.sites.list().filter((s): s is Site & { git: NonNullable<Site['git']> } => !!s.git && s.projectId === projectId);
  let site: Site | undefined;
  if (input.domain) {
    site = gitSites.find((s) => s.domain === input.domain?.toLowerCase());
    if (!site) throw AppError.notFound(`No git-sourced site ${input.domain} in this project`);
  } else {
    if (gitSites.length === 0) throw AppError.badRequest('No site of this project has a git source to preview');
    if (gitSites.length > 1) throw AppError.badRequest('This project has several git-sourced sites: name one with "domain"');
    site = gitSites[0];
  }
  return deps.previews.request(site!, input.branch, source);
}
