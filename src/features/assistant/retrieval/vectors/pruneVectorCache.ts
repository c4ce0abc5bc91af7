import { createReadStream } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { writeFileDurablyWith } from '../../../../platform/store/writeFileDurably.js';
import { VectorCache } from './VectorCache.js';

/** What one prune did. */
export interface VectorCachePruned {
  kept: number;
  dropped: number;
  bytes: number;
  /** Cache files of other embedding models, deleted whole. */
  otherModels: number;
}

/** Each line of a cache file: its key (null for a torn line) and its size with the newline. */
async function* cacheLines(file: string): AsyncGenerator<{ key: string | null; line: string; size: number }> {
  const input = createReadStream(file, { encoding: 'utf8' });
  try {
    for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      let key: string | null = null;
      try {
        key = (JSON.parse(line) as { h?: unknown }).h as string;
      } catch {
        // an empty or torn line
      }
      yield { key: typeof key === 'string' ? key : null, line, size: Buffer.byteLength(line) + 1 };
    }
  } finally {
    input.destroy();
  }
}

/**
 * Rewrites `model`'s vector cache to the entries `keep` names (the live versions' sections),
 * newest first while they fit in `maxBytes`; an entry no live version uses, a duplicate and a
 * torn line go. The files of other models go whole: a model change re-embeds everything anyway.
 * Two streaming passes (choose, then copy) keep memory at one number per line, and the rewrite
 * is atomic (writeFileDurably), so a crash leaves the old file or the new one.
 */
export async function pruneVectorCache(
  dataDir: string,
  model: string,
  keep: ReadonlySet<string>,
  maxBytes: number,
): Promise<VectorCachePruned> {
  const dir = VectorCache.dirOf(dataDir);
  const file = VectorCache.fileOf(dataDir, model);
  let otherModels = 0;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith('.jsonl') || join(dir, name) === file) continue;
    await rm(join(dir, name), { force: true });
    otherModels++;
  }
  const lines: { key: string | null; size: number }[] = [];
  try {
    for await (const { key, size } of cacheLines(file)) lines.push({ key, size });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kept: 0, dropped: 0, bytes: 0, otherModels };
    throw err;
  }
  // Newest first: the last line of a key is the one a reader ends up with, and recent versions matter most.
  const chosen = new Set<number>();
  const seen = new Set<string>();
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const { key, size } = lines[i]!;
    if (key === null || !keep.has(key) || seen.has(key) || bytes + size > maxBytes) continue;
    seen.add(key);
    chosen.add(i);
    bytes += size;
  }
  await writeFileDurablyWith(file, 0o600, async (handle) => {
    let i = 0;
    let batch = '';
    for await (const { line } of cacheLines(file)) {
      if (chosen.has(i++)) batch += `${line}\n`;
      if (batch.length >= 1 << 20) {
        await handle.write(batch);
        batch = '';
      }
    }
    if (batch) await handle.write(batch);
  });
  return { kept: chosen.size, dropped: lines.length - chosen.size, bytes, otherModels };
}
