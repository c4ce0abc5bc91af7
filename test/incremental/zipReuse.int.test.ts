import { mkdtemp, readFile, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { GeneratedSite, seededRandom } from './generatedSite.js';
import { packSite } from './packSite.js';
import { PreviousBundle } from '../../src/bundle/zip/PreviousBundle.js';

test('unchanged files are copied from the previous zip, not recompressed, and the zip is byte-identical to a full pack', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'enclave-zip-reuse-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const site = new GeneratedSite(join(root, 'src'));
  await site.create(8);
  const cache = join(root, 'cache');
  await packSite(site.dir, join(root, 'first.zip'), { cache });
  await site.edit('body', seededRandom(1));
  const second = await packSite(site.dir, join(root, 'second.zip'), { previous: join(root, 'first.zip'), cache });
  const full = await packSite(site.dir, join(root, 'full.zip'));
  t.true((await readFile(join(root, 'second.zip'))).equals(await readFile(join(root, 'full.zip'))), 'the same bytes');
  t.is(full.reusedEntries, 0);
  // Every page and Markdown copy but the edited page's, the theme assets, images…
  t.true(second.reusedEntries > 2 * 10 - 2, `${second.reusedEntries} entries reused`);
  t.is(second.renderedPages, 1);

  // A damaged previous zip is not used; the pack is still right.
  await truncate(join(root, 'first.zip'), 100);
  t.is(await PreviousBundle.open(join(root, 'first.zip')), null);
  t.is(await PreviousBundle.open(join(root, 'missing.zip')), null);
  const third = await packSite(site.dir, join(root, 'third.zip'), { previous: join(root, 'first.zip'), cache });
  t.is(third.reusedEntries, 0);
  t.true((await readFile(join(root, 'third.zip'))).equals(await readFile(join(root, 'full.zip'))));
});
