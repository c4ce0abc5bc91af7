import type { Readiness } from '../Feature.js';
import type { DeploymentsData } from './deploymentStore.js';
import type { SiteVersion } from './SiteVersion.js';

/**
 * Readiness of one site: unavailable with no live version (saying whether one is on its way),
 * degraded while the last deployment failed, else ok with the live version.
 */
export function siteReadiness(live: SiteVersion | null, deploying: boolean, lastError: DeploymentsData['lastError']): Readiness {
  if (!live) {
    const detail = deploying
      ? 'no site version is active yet; a deployment is in progress'
      : `no site version is active${lastError ? `; last deployment failed: ${lastError.reason}` : ''}`;
    return { status: 'unavailable', detail };
  }
  if (lastError)
    return {
      status: 'degraded',
      detail: `serving version ${live.version}; last deployment failed: ${lastError.reason}`,
      version: live.version,
      domain: live.domain,
    };
  return { status: 'ok', version: live.version, domain: live.domain };
}
