import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import { makeTempDir } from '../helpers/testAppliance.js';
import { deployAndWait, startLoggedAppliance } from '../deploy/helpers/loggedAppliance.js';
import { makeSiteFiles, writeBundle } from '../deploy/helpers/testBundles.js';

test('activating a version that shares most files with the live one links them and writes only the changed ones; both serve right', async (t) => {
  const dir = await makeTempDir('enclave-deploy-diff-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const app = await startLoggedAppliance();
  t.teardown(() => app.close());
  const files = makeSiteFiles('v1');
  await writeBundle(join(dir, 'one.zip'), 'one', { files });
  const changed = Buffer.from(files['reference.html'].toString('utf8').replace('API reference', 'API reference, revised'));
  await writeBundle(join(dir, 'two.zip'), 'two', { files: { ...files, 'reference.html': changed } });

  const first = await deployAndWait(app, { bundleUrl: pathToFileURL(join(dir, 'one.zip')).href });
  t.is(first.status, 'active', first.error ?? '');
  const second = await deployAndWait(app, { bundleUrl: pathToFileURL(join(dir, 'two.zip')).href });
  t.is(second.status, 'active', second.error ?? '');

  const versions = join(app.dataDir, 'site', 'versions');
  const [a, b] = [join(versions, first.id!), join(versions, second.id!)];
  const inode = async (p: string) => (await stat(p)).ino;
  // Unchanged files and their precompressed variants are the live version's, linked.
  t.is(await inode(join(b, 'files', 'index.html')), await inode(join(a, 'files', 'index.html')));
  t.is(await inode(join(b, 'files', 'guides', 'start.html')), await inode(join(a, 'files', 'guides', 'start.html')));
  t.is(await inode(join(b, 'encoded', 'index.html.gz')), await inode(join(a, 'encoded', 'index.html.gz')));
  t.is(await inode(join(b, 'encoded', 'index.html.br')), await inode(join(a, 'encoded', 'index.html.br')));
  // The changed page is written afresh, its variants compressed afresh.
  t.not(await inode(join(b, 'files', 'reference.html')), await inode(join(a, 'files', 'reference.html')));
  t.not(await inode(join(b, 'encoded', 'reference.html.gz')), await inode(join(a, 'encoded', 'reference.html.gz')));
  t.deepEqual(await readFile(join(b, 'files', 'reference.html')), changed);
  t.deepEqual(
    JSON.parse(await readFile(join(b, 'extras.json'), 'utf8'))['index.html'],
    JSON.parse(await readFile(join(a, 'extras.json'), 'utf8'))['index.html'],
  );
  const live = app.logs.filter((l) => /is live/.test(l.msg));
  t.is(live.at(-1)?.linkedFromLive, Object.keys(files).length - 1);

  // Served: the new page, and the unchanged ones, gzip included; still so once the old version is gone.
  const check = async () => {
    t.regex(await (await fetch(`${app.url}/reference`)).text(), /API reference, revised/);
    const gz = await fetch(`${app.url}/`, { headers: { 'accept-encoding': 'gzip' } });
    t.regex(await gz.text(), /Welcome/);
  };
  await check();
  await rm(a, { recursive: true, force: true });
  t.false((await readdir(versions)).includes(first.id!));
  await check();
});
