import { mkdtemp, readdir, readFile, rm, stat, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { MAX_SEGMENTS } from '../../src/render/incremental/segmentsToFold.js';
import { GeneratedSite, seededRandom } from '../incremental/generatedSite.js';
import { packSite } from '../incremental/packSite.js';

// The page shares record is appended to, not rewritten (src/render/incremental/PageSharesWriter.ts).

interface Index {
  segments: [string, number][];
  pages: Record<string, [string, string[], number, number, number[], number, number]>;
}

async function readIndex(cache: string): Promise<Index> {
  return JSON.parse((await readFile(join(cache, 'shares.json'), 'utf8')).slice(65)) as Index;
}

/** A generated site exported once into v0.zip with its cache; `step` exports it again (incremental, then full) and compares. */
async function siteWithRecord(t: ExecutionContext, pages: number) {
  const root = await mkdtemp(join(tmpdir(), 'enclave-appended-shares-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const site = new GeneratedSite(join(root, 'src'));
  await site.create(pages);
  const cache = join(root, 'cache');
  let previous = join(root, 'v0.zip');
  await packSite(site.dir, previous, { cache });
  let n = 0;
  const step = async () => {
    // No bodies: a page is reused only whole, from the shares record.
    for (const name of await readdir(join(cache, 'pages'))) await rm(join(cache, 'pages', name));
    const zip = join(root, `v${++n}.zip`);
    const result = await packSite(site.dir, zip, { previous, cache });
    await packSite(site.dir, join(root, 'full.zip'));
    t.true((await readFile(zip)).equals(await readFile(join(root, 'full.zip'))), `export ${n}: byte-identical to a full export`);
    previous = zip;
    return result;
  };
  return { site, cache, step, total: pages + 2 };
}

test('a one-body export appends one share: the first segment is kept as it was, and a full export’s bytes come out', async (t) => {
  const { site, cache, step, total } = await siteWithRecord(t, 8);
  const before = await readIndex(cache);
  t.is(before.segments.length, 1);
  const [base, baseSize] = before.segments[0];
  const baseStat = await stat(join(cache, base));
  await site.edit('body', seededRandom(3));
  const result = await step();
  t.is(result.renderedPages, 1);
  t.is(result.reusedPages, total - 1);
  const after = await readIndex(cache);
  t.is(after.segments.length, 2, 'this export’s segment, then the first');
  t.deepEqual(after.segments[1], [base, baseSize]);
  const [own, ownSize] = after.segments[0];
  t.true(ownSize < baseSize / 4, `the new segment holds one share (${ownSize} of ${baseSize} bytes)`);
  t.is((await stat(join(cache, own))).size, ownSize);
  const baseNow = await stat(join(cache, base));
  t.is(baseNow.mtimeMs, baseStat.mtimeMs, 'the first segment was not written again');
  t.is(baseNow.ino, baseStat.ino);
  t.is(Object.values(after.pages).filter((p) => p[5] === 0).length, 1, 'one page points at the new segment');
});

test('a truncated tail costs only the shares it held', async (t) => {
  const { site, cache, step, total } = await siteWithRecord(t, 8);
  await site.edit('body', seededRandom(5));
  await step();
  // The last bytes of the newest segment: the one share written there.
  const [own, size] = (await readIndex(cache)).segments[0];
  await truncate(join(cache, own), size - 3);
  const result = await step();
  t.is(result.renderedPages, 1, 'the page whose share was cut is rendered');
  t.is(result.reusedPages, total - 1);
});

test('repeated edits: the record stays within its bounds (segments, dead bytes) and every export matches a full one', async (t) => {
  const { site, cache, step } = await siteWithRecord(t, 6);
  const random = seededRandom(9);
  let folded = false;
  for (let i = 0; i < 14; i++) {
    await site.edit('body', random);
    const result = await step();
    t.is(result.renderedPages, 1, `edit ${i}: one page rendered, the rest came whole from the record`);
    const index = await readIndex(cache);
    t.true(index.segments.length <= MAX_SEGMENTS, `edit ${i}: ${index.segments.length} segments`);
    if (index.segments.length === 1) folded = true;
    // Live bytes: every page's region; on disk: the segments the index names (nothing else is left).
    const live = Object.values(index.pages).reduce((n, p) => n + p[4].reduce((m, l) => m + Math.max(l, 0), 0), 0);
    const onDisk = index.segments.reduce((n, [, size]) => n + size, 0);
    t.true(onDisk <= live * 1.5 + live / 4, `edit ${i}: ${onDisk} bytes on disk for ${live} live`);
    const files = (await readdir(cache)).filter((n) => n.startsWith('shares-'));
    t.deepEqual(files.sort(), index.segments.map(([name]) => name).sort(), `edit ${i}: no segment left behind`);
  }
  t.true(folded, 'the record was compacted into one segment at least once');
});
