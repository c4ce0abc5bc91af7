import { mkdtemp, readFile, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createZipSink } from '../../src/bundle/zip/createZipSink.js';
import { PreviousBundle } from '../../src/bundle/zip/PreviousBundle.js';
import { renderSite } from '../../src/render/renderSite.js';
import { GeneratedSite, seededRandom } from './generatedSite.js';

const NOW = new Date('2026-03-04T05:06:07.000Z');

/** Renders the site into a zip at `zip`, copying unchanged entries from `previous` when given. */
async function pack(src: string, zip: string, previous?: string, cache?: string) {
  const out = createZipSink({ previous: previous ? await PreviousBundle.open(previous) : null });
  const result = await renderSite({
    sourceDir: src,
    out,
    domain: 'docs.example.com',
    jobId: 'job-1',
    now: NOW,
    version: 'v',
    generatorVersion: '9.9.9',
    ...(cache ? { incremental: { dir: cache } } : {}),
  });
  await out.finish(zip, NOW);
  return { result, reusedEntries: out.reusedEntries() };
}

test('unchanged files are copied from the previous zip, not recompressed, and the zip is byte-identical to a full pack', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'enclave-zip-reuse-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const site = new GeneratedSite(join(root, 'src'));
  await site.create(8);
  const cache = join(root, 'cache');
  await pack(site.dir, join(root, 'first.zip'), undefined, cache);
  await site.edit('body', seededRandom(1));
  const second = await pack(site.dir, join(root, 'second.zip'), join(root, 'first.zip'), cache);
  const full = await pack(site.dir, join(root, 'full.zip'));
  t.true((await readFile(join(root, 'second.zip'))).equals(await readFile(join(root, 'full.zip'))), 'the same bytes');
  t.is(full.reusedEntries, 0);
  // Every page and Markdown copy but the edited page's, the theme assets, images…
  t.true(second.reusedEntries > 2 * 10 - 2, `${second.reusedEntries} entries reused`);
  t.is(second.result.renderedPages, 1);

  // A damaged previous zip is not used; the pack is still right.
  await truncate(join(root, 'first.zip'), 100);
  t.is(await PreviousBundle.open(join(root, 'first.zip')), null);
  t.is(await PreviousBundle.open(join(root, 'missing.zip')), null);
  const third = await pack(site.dir, join(root, 'third.zip'), join(root, 'first.zip'), cache);
  t.is(third.reusedEntries, 0);
  t.true((await readFile(join(root, 'third.zip'))).equals(await readFile(join(root, 'full.zip'))));
});
