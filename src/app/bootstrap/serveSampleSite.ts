import type { Logger } from 'pino';
import type { Config } from '../../config/schema.js';
import type { Features } from '../createFeatures.js';
import { SAMPLE_DOMAIN } from './sampleDocs.js';

/**
 * With no deployment configured and nothing active yet, export the bundled sample docs and
 * serve them, so a newcomer sees a site at `/` within seconds. Runs in the background.
 */
export function serveSampleSite(config: Config, features: Features, logger: Logger): void {
  if (config.staticExport.enabled || features.deployments.activeSite.current()) return;
  void (async () => {
    try {
      const built = await features.exports.exportAndBundle(SAMPLE_DOMAIN);
      await features.deployments.activateBundleFile(built.zipPath, { source: `export ${built.jobId}` });
      logger.info({ domain: SAMPLE_DOMAIN, version: built.version }, 'sample docs site is live');
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'sample docs site could not be served');
    }
  })();
}
