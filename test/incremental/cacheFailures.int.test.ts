import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { renderDocs } from '../render/renderFixture.js';
import { assertSameTree } from './assertSameTree.js';
import { GeneratedSite, readTree, seededRandom } from './generatedSite.js';

/** A generated 6-page site (8 with its API pages) and a cache folder, both removed when the test ends. */
async function siteAndCache(t: ExecutionContext): Promise<{ site: GeneratedSite; cache: string }> {
  const root = await mkdtemp(join(tmpdir(), 'enclave-incremental-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const site = new GeneratedSite(join(root, 'src'));
  await site.create(6);
  return { site, cache: join(root, 'cache') };
}

/** The cache's page entry files. */
const entries = async (cache: string) =>
  (await readdir(join(cache, 'pages'))).filter((n) => n.endsWith('.json')).map((n) => join(cache, 'pages', n));

test('a truncated or altered cache entry is rendered afresh, never used: the output matches a full export', async (t) => {
  const { site, cache } = await siteAndCache(t);
  await renderDocs(site.dir, { version: 'v', incremental: { dir: cache } });
  const files = await entries(cache);
  t.is(files.length, 8);
  // One cut short; one with a page's text changed but its checksum line kept; one checksum valid
  // for a body of another page (as if files were swapped).
  const [cut, altered, swappedA, swappedB] = files;
  await truncate(cut, Math.floor((await readFile(cut)).length / 2));
  await writeFile(altered, (await readFile(altered, 'utf8')).replace(/Body of page/g, 'Wrong body of page'));
  const a = await readFile(swappedA);
  await writeFile(swappedA, await readFile(swappedB));
  await writeFile(swappedB, a);
  const incremental = await renderDocs(site.dir, { version: 'v', incremental: { dir: cache } });
  const full = await renderDocs(site.dir, { version: 'v' });
  assertSameTree(t, await readTree(incremental.out), await readTree(full.out), 'after damage');
  t.is(incremental.result.renderedPages, 4);
  t.is(incremental.result.reusedPages, 4);
  // The damaged entries were replaced: the next export reuses every page.
  t.is((await renderDocs(site.dir, { version: 'v', incremental: { dir: cache } })).result.reusedPages, 8);
});

test('a renderer version change throws the cache away (saying why) and renders every page', async (t) => {
  const { site, cache } = await siteAndCache(t);
  await renderDocs(site.dir, { version: 'v', incremental: { dir: cache } });
  const same = await renderDocs(site.dir, { version: 'v', incremental: { dir: cache } });
  t.is(same.result.reusedPages, 8);
  t.is(same.result.cache?.discarded, undefined);
  const upgraded = await renderDocs(site.dir, { version: 'v', generatorVersion: '10.0.0', incremental: { dir: cache } });
  t.is(upgraded.result.reusedPages, 0);
  t.regex(upgraded.result.cache?.discarded ?? '', /renderer changed \(9\.9\.9\/\d+ → 10\.0\.0\/\d+\)/);
  const full = await renderDocs(site.dir, { version: 'v', generatorVersion: '10.0.0' });
  assertSameTree(t, await readTree(upgraded.out), await readTree(full.out), 'after the upgrade');
  // A damaged record is a reason too.
  await writeFile(join(cache, 'meta.json'), '{"format":');
  const damaged = await renderDocs(site.dir, { version: 'v', generatorVersion: '10.0.0', incremental: { dir: cache } });
  t.is(damaged.result.reusedPages, 0);
  t.regex(damaged.result.cache?.discarded ?? '', /unreadable/);
  // Full on request.
  const asked = await renderDocs(site.dir, { version: 'v', generatorVersion: '10.0.0', incremental: { dir: cache, full: true } });
  t.is(asked.result.reusedPages, 0);
  t.regex(asked.result.cache?.discarded ?? '', /full export/);
});

test('two exports of one site racing on its cache both come out right, and leave a cache the next export can use', async (t) => {
  const { site, cache } = await siteAndCache(t);
  await renderDocs(site.dir, { version: 'v', incremental: { dir: cache } });
  const random = seededRandom(3);
  await site.edit('title', random);
  await site.edit('snippet', random);
  const [one, two] = await Promise.all([
    renderDocs(site.dir, { version: 'v', incremental: { dir: cache } }),
    renderDocs(site.dir, { version: 'v', incremental: { dir: cache } }),
  ]);
  const full = await readTree((await renderDocs(site.dir, { version: 'v' })).out);
  assertSameTree(t, await readTree(one.out), full, 'first racer');
  assertSameTree(t, await readTree(two.out), full, 'second racer');
  const after = await renderDocs(site.dir, { version: 'v', incremental: { dir: cache } });
  assertSameTree(t, await readTree(after.out), full, 'after the race');
  t.is(after.result.reusedPages, 8);
});

test('the cache stays within its bound: past it, pages are rendered but not kept', async (t) => {
  const { site, cache } = await siteAndCache(t);
  const first = await renderDocs(site.dir, { version: 'v', incremental: { dir: cache, maxBytes: 20_000 } });
  t.true(first.result.cache?.reachedBound);
  t.true((first.result.cache?.cacheBytes ?? Infinity) <= 20_000);
  let total = 0;
  for (const file of await entries(cache)) total += (await readFile(file)).length;
  t.true(total <= 20_000, `${total} bytes on disk`);
  const second = await renderDocs(site.dir, { version: 'v', incremental: { dir: cache, maxBytes: 20_000 } });
  t.true(second.result.reusedPages > 0 && second.result.reusedPages < 8, `${second.result.reusedPages} reused`);
});

test('a full export rewrites the cache in place: it reuses nothing, and leaves only what it kept within the bound', async (t) => {
  const { site, cache } = await siteAndCache(t);
  await renderDocs(site.dir, { version: 'v', incremental: { dir: cache } });
  t.is((await entries(cache)).length, 8);
  const full = await renderDocs(site.dir, { version: 'v', incremental: { dir: cache, full: true, maxBytes: 20_000 } });
  t.is(full.result.reusedPages, 0, 'entries still on disk are not reused by a full export');
  t.true(full.result.cache?.reachedBound);
  let total = 0;
  for (const file of await entries(cache)) total += (await readFile(file)).length;
  t.true(total <= 20_000, `${total} bytes on disk: entries the full export did not rewrite are removed`);
  const next = await renderDocs(site.dir, { version: 'v', incremental: { dir: cache, maxBytes: 20_000 } });
  t.true(next.result.reusedPages > 0, 'what the full export kept is reused');
});
