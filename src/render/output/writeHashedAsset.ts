import { createHash } from 'node:crypto';
import type { BundleSink } from './BundleSink.js';

/** Short content hash used in asset file names so servers can cache them forever. */
export function contentHash(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 10);
}

/** Writes `_assets/<base>.<hash><ext>` and returns its bundle-relative path. */
export async function writeHashedAsset(out: BundleSink, base: string, ext: string, data: string | Buffer): Promise<string> {
  const rel = `_assets/${base}.${contentHash(data)}${ext}`;
  await out.write(rel, data);
  return rel;
}
