import type { Logger } from 'pino';
import type { Config } from '../../config/schema.js';
import type { Features } from '../createFeatures.js';
import { SAMPLE_DOMAIN } from './sampleDocs.js';

/**
 * With no deployment configured and nothing active yet, export the bundled sample docs and
 * serve them, so a newcomer sees a site at `/` within seconds. Runs in the background; the
 * site's 503 page says meanwhile that the first export is running. Resolves with the version
 * once it is live (null if it could not be served); returns null when there is nothing to do.
 */
export function serveSampleSite(config: Config, features: Features, logger: Logger): Promise<string | null> | null {
  if (config.staticExport.enabled || features.deployments.activeSite.current()) return null;
  const live = features.deployments.sites.defaultSite.live;
  live.expectFirstVersion(`the first export of the sample docs (${SAMPLE_DOMAIN}) is still running`);
  return (async () => {
    try {
      const built = await features.exports.exportAndBundle(SAMPLE_DOMAIN);
      await features.deployments.activateBundleFile(built.zipPath, { source: `export ${built.jobId}` });
      logger.info({ domain: SAMPLE_DOMAIN, version: built.version }, 'sample docs site is live');
      return built.version;
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'sample docs site could not be served');
      return null;
    } finally {
      live.expectFirstVersion(null);
    }
  })();
}
