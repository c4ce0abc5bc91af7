import { redactCredentials } from '../../../platform/git/redactCredentials.js';
import type { AgentPreviews } from '../../agent/AgentPreviews.js';
import type { Site, SiteDirectory } from '../../control/SiteDirectory.js';
import type { GitPreviews } from './GitPreviews.js';

/**
 * Previews for agent jobs' pull requests: the git-sourced site of the job's project that builds
 * from the job's repository (the same URL, credentials, a trailing slash and `.git` aside, host
 * in any case) previews the job's branch.
 */
export function previewsForAgents(deps: { sites: SiteDirectory; previews: GitPreviews }): AgentPreviews {
  const siteOf = (projectId: string, repository: string): Site | undefined => {
    const wanted = sameRepository(repository);
    return deps.sites.list().find((s) => s.projectId === projectId && s.git && sameRepository(s.git.git) === wanted);
  };
  return {
    urlFor(projectId, repository, branch) {
      const site = siteOf(projectId, repository);
      return site ? deps.previews.urlFor(site, branch) : null;
    },
    async request(projectId, repository, branch, jobId) {
      const site = siteOf(projectId, repository);
      if (site) await deps.previews.request(site, branch, 'internal', jobId);
    },
  };
}

/** A repository URL reduced to what names the repository. */
function sameRepository(url: string): string {
  const clean = redactCredentials(url.trim())
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
  // Scheme and host are case-insensitive; the path is the server's to decide, so it stays as is.
  return clean.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/]*)/i, (origin) => origin.toLowerCase());
}
