import { createHash } from 'node:crypto';
import type { BundleSink } from '../../bundle/BundleSink.js';

/** Short content hash used in asset file names so servers can cache them forever. */
export function contentHash(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 10);
}

/** Writes `_assets/<base>.<hash><ext>`: its bundle-relative path at once, and the write to await. */
export function writeHashedAsset(
  out: BundleSink,
  base: string,
  ext: string,
  data: string | Buffer,
): { rel: string; written: Promise<void> } {
  const rel = `_assets/${base}.${contentHash(data)}${ext}`;
  return { rel, written: out.write(rel, data) };
}
