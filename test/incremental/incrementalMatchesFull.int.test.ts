import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { renderDocs } from '../render/renderFixture.js';
import { assertSameTree } from './assertSameTree.js';
import { EDIT_KINDS, GeneratedSite, readTree, seededRandom } from './generatedSite.js';

/** A temp folder removed when the test ends. */
async function tempDir(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'enclave-incremental-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const STEPS = 6;

for (const seed of [11, 23, 37]) {
  test(`after random edits (seed ${seed}), every incremental export is byte-identical to a full one`, async (t) => {
    const root = await tempDir(t);
    const site = new GeneratedSite(join(root, 'src'));
    await site.create(10);
    const cache = join(root, 'cache');
    const random = seededRandom(seed);
    const first = await renderDocs(site.dir, { version: 'v', incremental: { dir: cache } });
    t.is(first.result.reusedPages, 0);
    t.is(first.result.renderedPages, 12);
    for (let step = 0; step < STEPS; step++) {
      const kind = EDIT_KINDS[Math.floor(random() * EDIT_KINDS.length)];
      await site.edit(kind, random);
      const incremental = await renderDocs(site.dir, { version: 'v', incremental: { dir: cache } });
      const full = await renderDocs(site.dir, { version: 'v' });
      assertSameTree(t, await readTree(incremental.out), await readTree(full.out), `step ${step} (${kind})`);
      t.is(incremental.result.reusedPages + incremental.result.renderedPages, site.pages.length + 2, `step ${step}: every page counted`);
      await Promise.all([rm(incremental.out, { recursive: true }), rm(full.out, { recursive: true })]);
    }
  });
}

test('each kind of change, one at a time, matches a full export; a body or title change renders one page', async (t) => {
  const root = await tempDir(t);
  const site = new GeneratedSite(join(root, 'src'));
  await site.create(8);
  const cache = join(root, 'cache');
  await renderDocs(site.dir, { version: 'v', incremental: { dir: cache } });
  const random = seededRandom(5);
  for (const kind of EDIT_KINDS) {
    await site.edit(kind, random);
    const incremental = await renderDocs(site.dir, { version: 'v', incremental: { dir: cache } });
    const full = await renderDocs(site.dir, { version: 'v' });
    assertSameTree(t, await readTree(incremental.out), await readTree(full.out), kind);
    if (kind === 'body' || kind === 'title') {
      t.is(incremental.result.renderedPages, 1, `${kind}: one page rendered`);
      t.is(incremental.result.reusedPages, site.pages.length + 1, `${kind}: the rest reused`);
    }
    if (kind === 'snippet')
      t.is(incremental.result.renderedPages, site.pages.filter((p) => /-\d*[02468]$/.test(p)).length, 'snippet: the pages that use it');
  }
});
