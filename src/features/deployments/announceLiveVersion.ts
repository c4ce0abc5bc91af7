import type { Logger } from 'pino';
import type { InstalledVersion } from './installBundleVersion.js';
import type { SiteVersion } from './SiteVersion.js';

/** What the log says about a version that just went live. */
export interface LiveVersionFacts {
  id: string;
  site: string | null;
  version: SiteVersion;
  installed: InstalledVersion;
  failedPages: number | null;
  allowFailed: boolean;
  /** `Date.now()` when the deployment started, for the duration in the log line. */
  started: number;
}

/** Logs a version going live, with a warning first when it went live with failed pages. */
export function announceLiveVersion(logger: Logger, facts: LiveVersionFacts): void {
  const { id, version, installed, failedPages } = facts;
  if (failedPages && facts.allowFailed)
    logger.warn({ deploymentId: id, failedPages }, `version ${version.version} went live with ${failedPages} failed pages (allowFailed)`);
  logger.info(
    {
      deploymentId: id,
      site: facts.site,
      version: version.version,
      domain: version.domain,
      files: installed.fileCount,
      linkedFromLive: installed.linkedFiles,
      ms: Date.now() - facts.started,
    },
    `site version ${version.version} is live`,
  );
}
