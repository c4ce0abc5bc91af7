import type { BundleSink } from '../../bundle/BundleSink.js';
import { ACCESS_MAP_PATH, type AccessMap, type PageAccess } from '../../platform/access/PageAccess.js';

/**
 * Writes `_enclave/access.json`: the pages' map when any page is marked, with the assets only
 * some readers may load. A site without marks but with such assets (every page then needs a
 * signed-in reader) gets a map naming no page and building no audience: the server reads that
 * exactly as "no page marked", and still gates the assets.
 */
export async function writeAccessMap(out: BundleSink, map: AccessMap | null, assets: Record<string, PageAccess>): Promise<void> {
  const withAssets = Object.keys(assets).length > 0 ? { assets } : {};
  if (map) await out.write(ACCESS_MAP_PATH, `${JSON.stringify({ ...map, ...withAssets })}\n`);
  else if (withAssets.assets) await out.write(ACCESS_MAP_PATH, `${JSON.stringify({ v: 1, pages: {}, audiences: [], ...withAssets })}\n`);
}
