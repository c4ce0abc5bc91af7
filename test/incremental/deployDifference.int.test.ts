import { access, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import { makeTempDir } from '../helpers/testAppliance.js';
import { deployAndWait, startLoggedAppliance } from '../deploy/helpers/loggedAppliance.js';
import { makeSiteFiles, writeBundle } from '../deploy/helpers/testBundles.js';

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

test('a version that shares most files with the live one holds only the changed ones; pruning the base gives it its own links; both serve right', async (t) => {
  const dir = await makeTempDir('enclave-deploy-diff-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const app = await startLoggedAppliance({ overrides: { staticExport: { keepVersions: 2 } } });
  t.teardown(() => app.close());
  const files = makeSiteFiles('v1');
  await writeBundle(join(dir, 'one.zip'), 'one', { files });
  const changed = Buffer.from(files['reference.html'].toString('utf8').replace('API reference', 'API reference, revised'));
  await writeBundle(join(dir, 'two.zip'), 'two', { files: { ...files, 'reference.html': changed } });
  const start = Buffer.from(files['guides/start.html'].toString('utf8').replace('Getting started', 'Getting started, again'));
  await writeBundle(join(dir, 'three.zip'), 'three', { files: { ...files, 'reference.html': changed, 'guides/start.html': start } });

  const first = await deployAndWait(app, { bundleUrl: pathToFileURL(join(dir, 'one.zip')).href });
  t.is(first.status, 'active', first.error ?? '');
  const second = await deployAndWait(app, { bundleUrl: pathToFileURL(join(dir, 'two.zip')).href });
  t.is(second.status, 'active', second.error ?? '');

  const versions = join(app.dataDir, 'site', 'versions');
  const [a, b] = [join(versions, first.id!), join(versions, second.id!)];
  // The new version's folder holds the changed page (and links to the bundle's own _enclave
  // files); the rest is read from the first version's folder, which origins.json names.
  t.false(await exists(join(b, 'files', 'index.html')));
  t.false(await exists(join(b, 'encoded', 'index.html.gz')));
  t.deepEqual(await readFile(join(b, 'files', 'reference.html')), changed);
  t.true(await exists(join(b, 'encoded', 'reference.html.br')));
  t.is((await stat(join(b, 'files', '_enclave', 'report.json'))).ino, (await stat(join(a, 'files', '_enclave', 'report.json'))).ino);
  const origins = JSON.parse(await readFile(join(b, 'origins.json'), 'utf8'));
  t.deepEqual(origins.holders, [first.id]);
  t.deepEqual(
    Object.keys(origins.files).sort(),
    Object.keys(files)
      .filter((p) => p !== 'reference.html' && !p.startsWith('_enclave/'))
      .sort(),
  );
  t.deepEqual(
    JSON.parse(await readFile(join(b, 'extras.json'), 'utf8'))['index.html'],
    JSON.parse(await readFile(join(a, 'extras.json'), 'utf8'))['index.html'],
  );
  const live = app.logs.filter((l) => /is live/.test(l.msg));
  t.is(live.at(-1)?.linkedFromLive, Object.keys(files).length - 1);

  const check = async (page: string, text: RegExp) => {
    t.regex(await (await fetch(`${app.url}${page}`)).text(), text);
    const gz = await fetch(`${app.url}/`, { headers: { 'accept-encoding': 'gzip' } });
    t.is(gz.headers.get('content-encoding'), 'gzip');
    t.regex(await gz.text(), /Welcome/);
  };
  await check('/reference', /API reference, revised/);

  // A third version (keepVersions 2) prunes the first: the two kept versions that read from its
  // folder get their own links to those files first, then the folder goes.
  const indexInode = (await stat(join(a, 'files', 'index.html'))).ino;
  const third = await deployAndWait(app, { bundleUrl: pathToFileURL(join(dir, 'three.zip')).href });
  t.is(third.status, 'active', third.error ?? '');
  const c = join(versions, third.id!);
  await check('/guides/start', /Getting started, again/);
  t.false((await readdir(versions)).includes(first.id!));
  t.is((await stat(join(b, 'files', 'index.html'))).ino, indexInode, 'linked, not copied');
  t.is((await stat(join(c, 'files', 'index.html'))).ino, indexInode);
  t.false(await exists(join(b, 'origins.json')), 'the second version now holds every file itself');
  t.deepEqual(JSON.parse(await readFile(join(c, 'origins.json'), 'utf8')).holders, [second.id], 'the third still reads from the second');
  const back = await app.api('/v1/deployments/rollback', { method: 'POST', json: {} });
  t.is(back.status, 200);
  await check('/guides/start', /Getting started</);
  await check('/reference', /API reference, revised/);
});
