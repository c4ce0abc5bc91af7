import { access, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import AdmZip from 'adm-zip';
import test, { type ExecutionContext } from 'ava';
import { makeTempDir } from '../helpers/testAppliance.js';
import { deployAndWait, type LoggedAppliance, startLoggedAppliance } from '../deploy/helpers/loggedAppliance.js';
import { makeManifest, makeSiteFiles, type SiteFiles, writeBundle } from '../deploy/helpers/testBundles.js';

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );
const deployFile = (app: LoggedAppliance, zip: string) => deployAndWait(app, { bundleUrl: pathToFileURL(zip).href });

/** The first site, and a second that changes one page, adds one and removes two files. */
function twoSites(): { one: SiteFiles; two: SiteFiles } {
  const one = makeSiteFiles('v1');
  const two: SiteFiles = { ...one };
  two['reference.html'] = Buffer.from(one['reference.html'].toString('utf8').replace('API reference', 'API reference, revised'));
  two['guides/new.html'] = Buffer.from(`<!doctype html><title>New</title><p>${'A new page. '.repeat(80)}</p>`);
  delete two['llms.txt'];
  delete two['guides/start.md'];
  return { one, two };
}

const PATHS = ['/', '/reference', '/guides/start', '/guides/new', '/guides/start.md', '/llms.txt', '/sitemap.xml', '/_assets/logo.png'];

/** A temp folder (removed when the test ends) holding the two sites as `one.zip` and `two.zip`. */
async function twoBundles(t: ExecutionContext): Promise<string> {
  const dir = await makeTempDir('enclave-layered-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const { one, two } = twoSites();
  await writeBundle(join(dir, 'one.zip'), 'one', { files: one });
  await writeBundle(join(dir, 'two.zip'), 'two', { files: two });
  return dir;
}

/** Status, ETag, encoding and bytes of every path in every encoding: what a reader can observe. */
async function observe(url: string): Promise<Record<string, unknown>> {
  const seen: Record<string, unknown> = {};
  for (const path of [
    ...PATHS,
    ...Object.keys(makeSiteFiles('v1'))
      .filter((p) => p.startsWith('_assets/'))
      .map((p) => `/${p}`),
  ])
    for (const encoding of ['identity', 'gzip', 'br']) {
      const res = await fetch(`${url}${path}`, { headers: { 'accept-encoding': encoding } });
      const body = Buffer.from(await res.arrayBuffer()).toString('base64');
      const etag = res.headers.get('etag');
      const again = etag
        ? (await fetch(`${url}${path}`, { headers: { 'accept-encoding': encoding, 'if-none-match': etag } })).status
        : null;
      seen[`${path} ${encoding}`] = { status: res.status, etag, encoding: res.headers.get('content-encoding'), body, again };
    }
  return seen;
}

test('a layered version serves exactly what a full install of the same bundle serves, and rolls back and forth', async (t) => {
  const dir = await twoBundles(t);
  const layered = await startLoggedAppliance();
  t.teardown(() => layered.close());
  const full = await startLoggedAppliance();
  t.teardown(() => full.close());

  t.is((await deployFile(layered, join(dir, 'one.zip'))).status, 'active');
  const before = await observe(layered.url);
  const second = await deployFile(layered, join(dir, 'two.zip'));
  t.is(second.status, 'active');
  t.true(await exists(join(layered.dataDir, 'site', 'versions', second.id!, 'origins.json')), 'the second version is layered');
  t.is((await deployFile(full, join(dir, 'two.zip'))).status, 'active');

  const seen = await observe(layered.url);
  t.deepEqual(seen, await observe(full.url));
  t.is((seen['/guides/new identity'] as { status: number }).status, 200);
  t.is((seen['/llms.txt identity'] as { status: number }).status, 404, 'a removed file is gone');
  t.is((seen['/ br'] as { encoding: string }).encoding, 'br', 'an unchanged page keeps its brotli variant');
  t.is((seen['/ gzip'] as { again: number }).again, 304);

  t.is((await layered.api('/v1/deployments/rollback', { method: 'POST', json: {} })).status, 200);
  t.deepEqual(await observe(layered.url), before, 'rolled back to the first version, byte for byte');
  t.is((await layered.api('/v1/deployments/rollback', { method: 'POST', json: { version: 'two' } })).status, 200);
  t.deepEqual(await observe(layered.url), seen);
});

test('a layered bundle whose changed file does not match its manifest is refused; the live version keeps serving', async (t) => {
  const dir = await makeTempDir('enclave-layered-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const { one, two } = twoSites();
  await writeBundle(join(dir, 'one.zip'), 'one', { files: one });
  // The manifest describes `two`, but the zip carries another reference page.
  const zip = new AdmZip();
  for (const [path, data] of Object.entries(two))
    zip.addFile(path, path === 'reference.html' ? Buffer.from(data.toString('utf8').replace('revised', 'altered')) : data);
  zip.addFile('_enclave/manifest.json', makeManifest(two, { version: 'two' }));
  await zip.writeZipPromise(join(dir, 'bad.zip'));
  const app = await startLoggedAppliance();
  t.teardown(() => app.close());
  t.is((await deployFile(app, join(dir, 'one.zip'))).status, 'active');
  const before = await observe(app.url);
  const refused = await deployFile(app, join(dir, 'bad.zip'));
  t.is(refused.status, 'failed');
  t.regex(refused.error ?? '', /SHA-256 of "reference.html" does not match the manifest/);
  t.deepEqual(await observe(app.url), before);
});

test('a live version whose folder is damaged is not layered over: the next version is written whole', async (t) => {
  const dir = await twoBundles(t);
  const app = await startLoggedAppliance();
  t.teardown(() => app.close());
  const first = await deployFile(app, join(dir, 'one.zip'));
  await rm(join(app.dataDir, 'site', 'versions', first.id!, 'files'), { recursive: true });
  const second = await deployFile(app, join(dir, 'two.zip'));
  t.is(second.status, 'active', second.error ?? '');
  const own = join(app.dataDir, 'site', 'versions', second.id!);
  t.false(await exists(join(own, 'origins.json')));
  t.true(await exists(join(own, 'files', 'index.html')));
  t.regex(await (await fetch(`${app.url}/`)).text(), /Welcome/);
});

test('a restart after a prune was recorded but before its flattening finishes it: the layered version serves, the old folder goes', async (t) => {
  const dir = await twoBundles(t);
  const app = await startLoggedAppliance();
  const first = await deployFile(app, join(dir, 'one.zip'));
  const second = await deployFile(app, join(dir, 'two.zip'));
  const seen = await observe(app.url);
  const versions = join(app.dataDir, 'site', 'versions');
  t.true(await exists(join(versions, second.id!, 'origins.json')), 'the second version reads from the first');
  await app.stop();
  // What a crash right after `markRemoved` leaves: the first version's record says removed, its
  // folder is still there, and the second version still reads from it.
  const state = join(app.dataDir, 'deployments.json');
  const data = JSON.parse(await readFile(state, 'utf8'));
  data.deployments.find((d: { id: string }) => d.id === first.id).status = 'removed';
  await writeFile(state, JSON.stringify(data));

  const again = await startLoggedAppliance({ dataDir: app.dataDir, key: app.key });
  t.teardown(() => again.close());
  t.deepEqual(await observe(again.url), seen);
  t.false(await exists(join(versions, first.id!)), 'the pruned folder is deleted once nothing reads from it');
  t.false(await exists(join(versions, second.id!, 'origins.json')));
  t.true(await exists(join(versions, second.id!, 'files', 'index.html')));
});
