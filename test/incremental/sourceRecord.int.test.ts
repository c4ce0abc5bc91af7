import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { takeSourceStats } from '../../src/features/exports/worker/sourceStats.js';
import { hashDocsSource } from '../../src/render/hashDocsSource.js';
import { readDocsSource } from '../../src/render/source/readDocsSource.js';
import { renderDocs } from '../render/renderFixture.js';
import { assertSameTree } from './assertSameTree.js';
import { EDIT_KINDS, GeneratedSite, readTree, seededRandom } from './generatedSite.js';

/** A temp folder removed when the test ends. */
async function tempDir(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'enclave-source-record-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

// No racy window: every file here is written within a second of its export, and the edits come
// after the stats (an export lies between), so their ctimes differ from those recorded.
const stats = (dir: string, scratch: string) => takeSourceStats(dir, scratch, 0n);

/** A site of a few pages, and a read of it with the record in `cache`. */
async function recordedSite(t: ExecutionContext) {
  const root = await tempDir(t);
  const site = new GeneratedSite(join(root, 'src'));
  await site.create(6);
  const cache = join(root, 'cache');
  const read = async () => readDocsSource(site.dir, { dir: cache, rendererVersion: '9.9.9', stats: await stats(site.dir, root) });
  return { root, site, cache, read };
}

/** What a read without any record says of the source, to compare with. */
async function assertSameAsFullRead(t: ExecutionContext, dir: string, read: Awaited<ReturnType<typeof readDocsSource>>) {
  const full = await readDocsSource(dir);
  t.is(read.hash, full.hash);
  t.is(read.hash, await hashDocsSource(dir), 'the server hashes sources as an export reads them');
  t.is(read.otherHash, full.otherHash);
  t.deepEqual(read.fileHashes, full.fileHashes);
  t.deepEqual(read.facts, full.facts);
  for (const rel of full.texts.keys()) t.is(read.texts.get(rel), full.texts.get(rel), rel);
}

const pageFile = (site: GeneratedSite, i: number) => join(site.dir, `${site.pages[i]}.mdx`);

test('an unchanged file is not read again; a changed one is, and the read matches a full one', async (t) => {
  const { site, read } = await recordedSite(t);
  const first = await read();
  t.true(first.texts.size > 6, 'the first read takes every text');
  const second = await read();
  // SourceTexts.size counts the texts read so far: none, until a page asks for its text.
  t.is(second.texts.size, 0);
  await assertSameAsFullRead(t, site.dir, second);
  await writeFile(pageFile(site, 2), `${readFileSync(pageFile(site, 2), 'utf8')}\nOne more line.\n`);
  const third = await read();
  t.deepEqual([...Map.prototype.keys.call(third.texts)], [`${site.pages[2]}.mdx`]);
  t.not(third.hash, second.hash);
  await assertSameAsFullRead(t, site.dir, third);
});

test('a rewrite with the same size and its mtime set back is still caught: its ctime moved', async (t) => {
  const { site, read } = await recordedSite(t);
  const file = pageFile(site, 1);
  // A whole second, so setting it back is exact (utimes takes less precision than stat gives).
  const atime = new Date('2026-01-02T03:04:05Z');
  const mtime = new Date('2026-01-02T03:04:05Z');
  await utimes(file, atime, mtime);
  const before = await read();
  const text = readFileSync(file, 'utf8');
  const { size } = statSync(file);
  const swapped = text.replace(/[a-z]/, (c) => (c === 'x' ? 'y' : 'x'));
  t.not(swapped, text);
  await writeFile(file, swapped);
  await utimes(file, atime, mtime);
  t.is(statSync(file).size, size);
  t.is(statSync(file, { bigint: true }).mtimeNs, 1_767_323_045_000_000_000n);
  const after = await read();
  t.not(after.fileHashes.get(`${site.pages[1]}.mdx`), before.fileHashes.get(`${site.pages[1]}.mdx`));
  t.not(after.hash, before.hash);
  await assertSameAsFullRead(t, site.dir, after);
});

for (const damage of ['missing', 'truncated', 'altered'] as const)
  test(`a ${damage} record reads every file again`, async (t) => {
    const { site, cache, read } = await recordedSite(t);
    await read();
    const record = join(cache, 'source-record.bin');
    if (damage === 'missing') await rm(record);
    else if (damage === 'truncated') await truncate(record, Math.floor(statSync(record).size / 2));
    else {
      const data = await readFile(record);
      data[data.length - 10] ^= 0x01;
      await writeFile(record, data);
    }
    const again = await read();
    t.true(again.texts.size > 6, 'every text read');
    await assertSameAsFullRead(t, site.dir, again);
  });

test('a text read late that no longer matches its recorded hash fails the export, never renders', async (t) => {
  const { site, read } = await recordedSite(t);
  await read();
  const second = await read();
  await writeFile(pageFile(site, 0), 'changed after the stats were taken\n');
  t.throws(() => second.texts.get(`${site.pages[0]}.mdx`), { message: /docs source changed while reading .*: content/ });
});

for (const seed of [7, 19])
  test(`random edits with the record (seed ${seed}): every incremental export is byte-identical to a full one`, async (t) => {
    const root = await tempDir(t);
    const site = new GeneratedSite(join(root, 'src'));
    await site.create(10);
    const incremental = { dir: join(root, 'cache') };
    await renderDocs(site.dir, { version: 'v', incremental, sourceStats: await stats(site.dir, root) });
    const random = seededRandom(seed);
    for (let step = 0; step < 6; step++) {
      const kind = EDIT_KINDS[Math.floor(random() * EDIT_KINDS.length)];
      await site.edit(kind, random);
      const sourceStats = await stats(site.dir, root);
      const inc = await renderDocs(site.dir, { version: 'v', incremental, sourceStats });
      const full = await renderDocs(site.dir, { version: 'v' });
      assertSameTree(t, await readTree(inc.out), await readTree(full.out), `step ${step} (${kind})`);
      await Promise.all([rm(inc.out, { recursive: true }), rm(full.out, { recursive: true })]);
    }
  });

test('a change to docs.json renders every page from the record: texts are read as pages ask', async (t) => {
  const root = await tempDir(t);
  const site = new GeneratedSite(join(root, 'src'));
  await site.create(6);
  const incremental = { dir: join(root, 'cache') };
  await renderDocs(site.dir, { version: 'v', incremental, sourceStats: await stats(site.dir, root) });
  await site.edit('colours', seededRandom(3));
  const inc = await renderDocs(site.dir, { version: 'v', incremental, sourceStats: await stats(site.dir, root), threads: 2 });
  const full = await renderDocs(site.dir, { version: 'v' });
  t.is(inc.result.reusedPages, 0);
  assertSameTree(t, await readTree(inc.out), await readTree(full.out), 'colours');
});
