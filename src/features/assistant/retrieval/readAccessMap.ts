import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ACCESS_MAP_PATH, type AccessMap, accessMapSchema } from '../../../platform/access/PageAccess.js';

/**
 * The access map of an installed version (`_enclave/access.json`), or null when the bundle marks
 * no page. A map that fails its schema rejects: retrieval must not fall back to showing every page.
 */
export async function readAccessMap(filesDir: string): Promise<AccessMap | null> {
  let text: string;
  try {
    text = await readFile(join(filesDir, ACCESS_MAP_PATH), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return accessMapSchema.parse(JSON.parse(text));
}
