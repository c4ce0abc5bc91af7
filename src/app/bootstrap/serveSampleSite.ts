import type { Logger } from 'pino';
import type { Config } from '../../config/schema.js';
import type { Modules } from '../createFeatures.js';
import { SAMPLE_DOMAIN } from './sampleDocs.js';

/**
 * With no deployment configured and nothing active yet, export the bundled sample docs and
 * serve them, so a newcomer sees a site at `/` within seconds. Runs in the background.
 */
export function serveSampleSite(config: Config, modules: Modules, logger: Logger): void {
  if (config.staticExport.enabled || modules.deployments.activeSite.current()) return;
  void (async () => {
    try {
      const built = await modules.exports.exportAndBundle(SAMPLE_DOMAIN);
      await modules.deployments.activateBundleFile(built.zipPath, { source: `export ${built.jobId}` });
      logger.info({ domain: SAMPLE_DOMAIN, version: built.version }, 'sample docs site is live');
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'sample docs site could not be served');
    }
  })();
}
