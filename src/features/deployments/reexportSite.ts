import type { Logger } from 'pino';
import { hashDocsSource } from '../../render/index.js';
import type { SiteRepository } from '../control/SiteRepository.js';
import type { SiteDeployments } from './SiteDeployments.js';

/** Exports a site and packs its bundle (the export module's `exportAndBundle`). */
export type Reexporter = (domain: string) => Promise<{ jobId: string; zipPath: string; version: string; sha256: string }>;

/** One `config.export.reexport` entry. */
export interface ReexportEntry {
  domain: string;
  activate: boolean;
}

/** What a scheduled run did. */
export type ReexportOutcome = 'unchanged' | 'exported' | 'activated' | 'skipped';

/**
 * The body of a scheduled re-export: hash the site's docs source, and only when it differs from
 * the source of the last re-export, export and bundle it and (when configured) activate the
 * result on this appliance, into the site's own deployments. `now` stamps the record, so tests drive it without waiting for cron.
 */
export async function reexportSite(
  entry: ReexportEntry,
  deps: { sites: SiteRepository; deployments: SiteDeployments; reexporter: Reexporter; logger: Logger },
  now: Date,
): Promise<ReexportOutcome> {
  const { logger } = deps;
  const site = deps.sites.find(entry.domain);
  if (!site) {
    logger.warn({ domain: entry.domain }, `scheduled re-export skipped: no site ${entry.domain} is configured`);
    return 'skipped';
  }
  const sourceHash = await hashDocsSource(site.source);
  // The default site's state remembers every re-export (appliance-wide, as before several sites).
  const memory = deps.deployments.defaultSite;
  if (memory.lastReexport(site.domain)?.sourceHash === sourceHash) {
    logger.debug({ domain: entry.domain }, 'scheduled re-export: source unchanged');
    return 'unchanged';
  }
  const built = await deps.reexporter(entry.domain);
  await memory.recordReexport(site.domain, { sourceHash, at: now.toISOString(), jobId: built.jobId, version: built.version });
  logger.info(
    { domain: entry.domain, jobId: built.jobId, version: built.version },
    `scheduled re-export of ${entry.domain} built version ${built.version}`,
  );
  if (!entry.activate) return 'exported';
  const deployer = await deps.deployments.ensure(site.domain);
  const started = await deployer.beginLocal(built.zipPath, `export ${built.jobId}`, { origin: 'reexport', pin: null });
  await started.done;
  return 'activated';
}
