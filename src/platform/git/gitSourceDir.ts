import { join } from 'node:path';

/**
 * The appliance's own clone of a site's git source, under the data directory. Control names it
 * as the site's source folder and the sources feature fetches into it, so both must agree.
 */
export function gitSourceDir(dataDir: string, domain: string): string {
  return join(dataDir, 'sources', domain.toLowerCase());
}
