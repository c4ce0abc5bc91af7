import type { Logger } from 'pino';
import { hashDocsSource } from '../../render/index.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import type { ExportJobRepository } from './ExportJobRepository.js';

/** A bundle this appliance built, ready to go live. */
export interface BuiltBundle {
  jobId: string;
  zipPath: string;
  version: string;
  sha256: string;
  /** Pages that failed to render (deploy refuses such a bundle unless forced). */
  failedPages: number;
}

/** Exports a site and packs its bundle (the export feature's `exportAndBundle`). */
export type Reexporter = (domain: string) => Promise<BuiltBundle>;

/** Activates a built bundle as `domain`'s live version (the deployment feature's port); resolves once it is live. */
export type DeployBundle = (bundle: { domain: string; zipPath: string; jobId: string; sha256?: string }) => Promise<void>;

/** One `config.export.reexport` entry. */
export interface ReexportEntry {
  domain: string;
  activate: boolean;
}

/** What a scheduled run did. */
export type ReexportOutcome = 'unchanged' | 'exported' | 'activated' | 'skipped';

/**
 * The body of a scheduled re-export: hash the site's docs source, and only when it differs from
 * the source of the last re-export, export and bundle it and (when configured) hand the result
 * to the deployment feature to go live. `now` stamps the record, so tests drive it without
 * waiting for cron.
 */
export async function reexportSite(
  entry: ReexportEntry,
  deps: { sites: SiteDirectory; jobs: ExportJobRepository; reexporter: Reexporter; deploy: DeployBundle; logger: Logger },
  now: Date,
): Promise<ReexportOutcome> {
  const { logger } = deps;
  const site = deps.sites.find(entry.domain);
  if (!site) {
    logger.warn({ domain: entry.domain }, `scheduled re-export skipped: no site ${entry.domain} is configured`);
    return 'skipped';
  }
  const sourceHash = await hashDocsSource(site.source);
  if (deps.jobs.lastReexport(site.domain)?.sourceHash === sourceHash) {
    logger.debug({ domain: entry.domain }, 'scheduled re-export: source unchanged');
    return 'unchanged';
  }
  const built = await deps.reexporter(entry.domain);
  await deps.jobs.recordReexport(site.domain, { sourceHash, at: now.toISOString(), jobId: built.jobId, version: built.version });
  logger.info(
    { domain: entry.domain, jobId: built.jobId, version: built.version },
    `scheduled re-export of ${entry.domain} built version ${built.version}`,
  );
  if (!entry.activate) return 'exported';
  await deps.deploy({ domain: site.domain, zipPath: built.zipPath, jobId: built.jobId });
  return 'activated';
}
