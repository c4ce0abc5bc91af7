import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { pruneVectorCache } from '../../src/features/assistant/retrieval/vectors/pruneVectorCache.js';
import { VectorCache } from '../../src/features/assistant/retrieval/vectors/VectorCache.js';

const MODEL = 'embed-small';

async function cacheWith(t: import('ava').ExecutionContext, entries: [string, number][]): Promise<{ dataDir: string; cache: VectorCache }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'enclave-vcache-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const cache = await VectorCache.open(dataDir, MODEL);
  for (const [key, value] of entries) await cache.add([[key, Float32Array.of(value, value)]]);
  return { dataDir, cache };
}

const keysOf = async (dataDir: string) =>
  (await readFile(VectorCache.fileOf(dataDir, MODEL), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { h: string }).h);

test('keeps only what the live versions use, the newest line of a key, and drops torn lines and other models', async (t) => {
  const { dataDir, cache } = await cacheWith(t, [
    ['old-a', 1],
    ['live-b', 2],
    ['live-c', 3],
    ['live-b', 4],
  ]);
  const file = VectorCache.fileOf(dataDir, MODEL);
  await writeFile(file, `${await readFile(file, 'utf8')}{"h":"torn`, { flag: 'w' });
  await writeFile(VectorCache.fileOf(dataDir, 'a model no longer set'), '{"h":"x","v":"AAAAAA=="}\n');
  t.true(cache.bytes > 0);

  const pruned = await pruneVectorCache(dataDir, MODEL, new Set(['live-b', 'live-c', 'not-cached']), 1 << 20);
  t.like(pruned, { kept: 2, dropped: 3, otherModels: 1 });
  t.deepEqual(await keysOf(dataDir), ['live-c', 'live-b'], 'file order kept; the older live-b line went');
  t.is(pruned.bytes, (await stat(file)).size);
  t.deepEqual(await readdir(VectorCache.dirOf(dataDir)), [file.split('/').at(-1)]);
  const reopened = await VectorCache.open(dataDir, MODEL);
  t.deepEqual([...(reopened.get('live-b') ?? [])], [4, 4], 'the newest vector of a key survives');
  t.is(reopened.get('old-a'), undefined);
});

test('the size bound keeps the newest live entries that fit', async (t) => {
  const { dataDir } = await cacheWith(t, [
    ['live-1', 1],
    ['live-2', 2],
    ['live-3', 3],
  ]);
  const lineBytes = (await stat(VectorCache.fileOf(dataDir, MODEL))).size / 3;
  const pruned = await pruneVectorCache(dataDir, MODEL, new Set(['live-1', 'live-2', 'live-3']), Math.floor(lineBytes * 2.5));
  t.like(pruned, { kept: 2, dropped: 1 });
  t.deepEqual(await keysOf(dataDir), ['live-2', 'live-3']);
});

test('no cache yet: nothing to do', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'enclave-vcache-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  t.deepEqual(await pruneVectorCache(dataDir, MODEL, new Set(), 100), { kept: 0, dropped: 0, bytes: 0, otherModels: 0 });
});
