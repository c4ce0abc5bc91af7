import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FileExtras } from '../../bundle/install/FileExtras.js';
import { linkAll } from '../../bundle/install/LinkBase.js';
import { syncTree } from '../../bundle/install/syncTree.js';
import { fsyncDirectory } from '../../platform/store/writeFileDurably.js';
import { versionLayout } from './versionLayout.js';
import { readVersionOrigins, versionOrigins, writeVersionOrigins } from './VersionOrigins.js';

/**
 * Makes layered version `id` hold its own hard links to the files it reads from the versions in
 * `drop` (which retention is about to delete), then rewrites its origins record without them.
 * The links are durable before the record changes, so a crash at any point leaves a version
 * that reads every file from a folder still on disk (links made before a crash are replaced).
 * Returns whether anything changed (the caller reloads the version's table then).
 */
export async function flattenVersion(versionsDir: string, id: string, drop: ReadonlySet<string>): Promise<boolean> {
  const layout = versionLayout(versionsDir, id);
  const origins = await readVersionOrigins(layout.origins);
  if (!origins?.holders.some((h) => drop.has(h))) return false;
  const extras = JSON.parse(await readFile(layout.extras, 'utf8')) as Record<string, FileExtras>;
  const keep = new Map<string, string>();
  const pairs: { from: string; to: string }[] = [];
  for (const [path, index] of Object.entries(origins.files)) {
    const holder = origins.holders[index];
    if (!drop.has(holder)) {
      keep.set(path, holder);
      continue;
    }
    const from = versionLayout(versionsDir, holder);
    pairs.push({ from: join(from.files, path), to: join(layout.files, path) });
    const variants = [...(extras[path]?.gzip === undefined ? [] : ['.gz']), ...(extras[path]?.br === undefined ? [] : ['.br'])];
    for (const ext of variants) pairs.push({ from: join(from.encoded, `${path}${ext}`), to: join(layout.encoded, `${path}${ext}`) });
  }
  // A link left by an interrupted flatten is replaced: its target is the same file anyway.
  await Promise.all(pairs.map((p) => rm(p.to, { force: true })));
  for (const dir of new Set(pairs.map((p) => dirname(p.to)))) await mkdir(dir, { recursive: true, mode: 0o755 });
  const done = await linkAll(pairs);
  const missing = pairs.filter((_, i) => !done[i]);
  if (missing.length) throw new Error(`cannot flatten version ${id}: ${missing.length} file(s) are gone, e.g. ${missing[0].from}`);
  await syncTree(
    layout.dir,
    pairs.map((p) => p.to),
  );
  const rest = versionOrigins(keep);
  if (rest) await writeVersionOrigins(layout.origins, rest);
  else {
    await rm(layout.origins, { force: true });
    await fsyncDirectory(layout.dir);
  }
  return true;
}
