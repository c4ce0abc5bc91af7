import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { EDIT_KINDS, GeneratedSite, seededRandom } from './generatedSite.js';
import { packSite } from './packSite.js';

/** A generated site of `pages` pages (2 more with its API pages) in a temp folder removed when the test ends. */
async function generated(t: ExecutionContext, pages: number, audiences: boolean) {
  const root = await mkdtemp(join(tmpdir(), 'enclave-page-shares-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const site = new GeneratedSite(join(root, 'src'), { audiences });
  await site.create(pages);
  return { root, site, cache: join(root, 'cache') };
}

/** Removes every kept page body: a page can then only be reused whole, from the shares record. */
async function dropBodies(cache: string): Promise<void> {
  const dir = join(cache, 'pages');
  for (const name of await readdir(dir)) await rm(join(dir, name));
}

/** Packs the site twice (incrementally from `previous`, and full) and asserts the zips are byte-identical. */
async function packAndCompare(t: ExecutionContext, root: string, site: GeneratedSite, cache: string, previous: string, label: string) {
  const zip = join(root, `${label.replace(/\W+/g, '-')}.zip`);
  const full = join(root, `${label.replace(/\W+/g, '-')}-full.zip`);
  const result = await packSite(site.dir, zip, { previous, cache });
  const fullResult = await packSite(site.dir, full);
  t.true((await readFile(zip)).equals(await readFile(full)), `${label}: the incremental zip is byte-identical to a full export's`);
  return { zip, result, fullResult };
}

for (const audiences of [false, true]) {
  for (const seed of [5, 29]) {
    test(`site-wide files from recorded shares match a full export after random edits (seed ${seed}, ${audiences ? 'with' : 'without'} reader audiences)`, async (t) => {
      const { root, site, cache } = await generated(t, 9, audiences);
      let previous = join(root, 'v0.zip');
      const first = await packSite(site.dir, previous, { cache });
      t.is(first.report.access !== undefined && first.report.access.audiences.length > 0, audiences, 'per-audience files are written');
      const random = seededRandom(seed);
      let wholeInAll = 0;
      for (let step = 1; step <= 6; step++) {
        const kind = EDIT_KINDS[Math.floor(random() * EDIT_KINDS.length)];
        await site.edit(kind, random);
        // Without bodies, only a page served whole from the record (its share and its files) is reused.
        await dropBodies(cache);
        const { zip, result } = await packAndCompare(t, root, site, cache, previous, `step ${step} ${kind}`);
        t.is(result.reusedPages, result.copiedPages, `step ${step} (${kind}): every reused page came whole from the record`);
        wholeInAll += result.reusedPages;
        previous = zip;
      }
      // Nothing changed since: every page comes from the record, none is read or rendered.
      await dropBodies(cache);
      const again = await packAndCompare(t, root, site, cache, previous, 'nothing changed');
      t.is(again.result.renderedPages, 0);
      t.is(again.result.reusedPages, site.pages.length + 2);
      t.true(wholeInAll > 0, 'some steps reused pages whole');
    });
  }
}

test('a one-body change reads no other page: its body is the only one rendered, the rest come from the record', async (t) => {
  const { root, site, cache } = await generated(t, 8, true);
  await packSite(site.dir, join(root, 'v0.zip'), { cache });
  await site.edit('body', seededRandom(1));
  await dropBodies(cache);
  const { result } = await packAndCompare(t, root, site, cache, join(root, 'v0.zip'), 'one body');
  t.is(result.renderedPages, 1);
  t.is(result.reusedPages, site.pages.length + 1);
  t.is(result.copiedPages, site.pages.length + 1);
});

/** The record's index as stored: its checksum line, then the JSON. */
async function readIndex(cache: string) {
  const text = await readFile(join(cache, 'shares.json'), 'utf8');
  const index = JSON.parse(text.slice(65)) as {
    segments: [string, number][];
    pages: Record<string, [string, string[], number, number, number[], number, number]>;
  };
  // The segment written last holds the shares this export made (the first, a full export, holds all).
  return { ...index, blob: index.segments[0][0] };
}

async function writeIndex(cache: string, index: unknown): Promise<void> {
  const payload = JSON.stringify(index);
  await writeFile(join(cache, 'shares.json'), `${createHash('sha256').update(payload).digest('hex')}\n${payload}`);
}

test('a truncated, altered or forged shares record is not used: pages are rendered afresh and the zip matches a full export', async (t) => {
  const { root, site, cache } = await generated(t, 6, true);
  const total = site.pages.length + 2;
  const start = join(root, 'start.zip');
  await packSite(site.dir, start, { cache });
  const fresh = async (label: string, damage: () => Promise<void>) => {
    await damage();
    // No bodies either: whatever the record can't serve is rendered.
    await dropBodies(cache);
    return (await packAndCompare(t, root, site, cache, start, label)).result;
  };

  const truncated = await fresh('truncated blob', async () => {
    const { blob } = await readIndex(cache);
    const bytes = await readFile(join(cache, blob));
    await writeFile(join(cache, blob), bytes.subarray(0, bytes.length >> 1));
  });
  // Each region is checked alone: the pages whose regions lay in the cut-off half are rendered, the rest reused.
  t.true(truncated.renderedPages > 0 && truncated.renderedPages < total, `a truncated segment: ${truncated.renderedPages} pages rendered`);

  const altered = await fresh('altered blob', async () => {
    const { blob } = await readIndex(cache);
    const bytes = await readFile(join(cache, blob));
    bytes[bytes.length >> 1] ^= 1;
    await writeFile(join(cache, blob), bytes);
  });
  t.is(altered.renderedPages, 1, 'one flipped byte in the segment: the page whose region holds it is rendered');

  const badIndex = await fresh('altered index', async () => {
    const text = await readFile(join(cache, 'shares.json'), 'utf8');
    await writeFile(join(cache, 'shares.json'), text.replace('"pages":{', '"pages": {'));
  });
  t.is(badIndex.renderedPages, total, 'an index that fails its checksum: every page rendered');

  // Forged with valid checksums: two pages' regions swapped (each would show the other's text),
  // and a third page's key replaced by another page's. Those three are rendered; the rest reused.
  const forged = await fresh('forged index', async () => {
    const index = await readIndex(cache);
    const [a, b, c] = site.pages;
    const pa = index.pages[a];
    const pb = index.pages[b];
    [pa[3], pb[3], pa[4], pb[4]] = [pb[3], pa[3], pb[4], pa[4]];
    index.pages[c][0] = index.pages[a][0];
    await writeIndex(cache, index);
  });
  t.is(forged.renderedPages, 3, 'a forged index: the three pages it misdescribes are rendered');
  t.is(forged.reusedPages, total - 3);

  const missingBlob = await fresh('blob missing', async () => {
    const { segments } = await readIndex(cache);
    for (const [name] of segments) await rm(join(cache, name));
  });
  t.is(missingBlob.renderedPages, total, 'the segments gone: every page rendered');
});
