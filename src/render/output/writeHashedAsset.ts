import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Short content hash used in asset file names so servers can cache them forever. */
export function contentHash(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 10);
}

/** Writes `_assets/<base>.<hash><ext>` and returns its bundle-relative path. */
export async function writeHashedAsset(outDir: string, base: string, ext: string, data: string | Buffer): Promise<string> {
  const rel = `_assets/${base}.${contentHash(data)}${ext}`;
  await mkdir(dirname(join(outDir, rel)), { recursive: true });
  await writeFile(join(outDir, rel), data);
  return rel;
}
