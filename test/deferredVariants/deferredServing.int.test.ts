import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import { deployAndWait, type LoggedAppliance, startLoggedAppliance } from '../deploy/helpers/loggedAppliance.js';
import { makeSiteFiles, writeBundle } from '../deploy/helpers/testBundles.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { BIG_PATH, bigFile } from './bigFile.js';
import { sameBytes } from '../helpers/sameBytes.js';

/** Polls at most this many times (a hang guard far above what a loaded machine needs). */
const MAX_POLLS = 2400;

/** Writes `<version>.zip` into `dir`: the test site with a big file whose compression is deferred. */
async function bundle(dir: string, version: string): Promise<string> {
  const zip = join(dir, `${version}.zip`);
  await writeBundle(zip, version, { files: makeSiteFiles(version, { [BIG_PATH]: bigFile(version) }) });
  return zip;
}

/** The big file in each encoding a reader may ask for: each answer must decode to `want`. */
async function expectServed(t: ExecutionContext, url: string, want: Buffer): Promise<(string | null)[]> {
  const encodings: (string | null)[] = [];
  for (const encoding of ['br', 'gzip', 'identity']) {
    const res = await fetch(`${url}/${BIG_PATH}`, { headers: { 'accept-encoding': encoding } });
    t.is(res.status, 200);
    // fetch() decodes br and gzip: a bad variant fails here or shows as other bytes.
    t.true(Buffer.from(await res.arrayBuffer()).equals(want), `${encoding} answer is the file`);
    encodings.push(res.headers.get('content-encoding'));
  }
  return encodings;
}

/** Asks until the big file is served as brotli, checking every answer on the way. */
async function untilCompressed(t: ExecutionContext, url: string, want: Buffer): Promise<void> {
  for (let i = 0; i < MAX_POLLS; i++) {
    const [br, gzip] = await expectServed(t, url, want);
    if (br === 'br' && gzip === 'gzip') return;
    t.is(br, null, 'identity until the variants are ready');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.fail('the variants never came');
}

async function setup(t: ExecutionContext): Promise<{ dir: string; app: LoggedAppliance }> {
  const dir = await makeTempDir('enclave-deferred-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const app = await startLoggedAppliance();
  return { dir, app };
}

const deploy = (app: LoggedAppliance, zip: string) => deployAndWait(app, { bundleUrl: pathToFileURL(zip).href });

/** Deploys a first version without the big file: compression is deferred only in a change over a live version. */
async function deployBase(t: ExecutionContext, dir: string, app: LoggedAppliance): Promise<void> {
  const zip = join(dir, 'base.zip');
  await writeBundle(zip, 'base', { files: makeSiteFiles('base') });
  t.is((await deploy(app, zip)).status, 'active');
}

test('a deployed big file is served as identity, then compressed, with Vary from then on; rollback serves each version intact', async (t) => {
  const { dir, app } = await setup(t);
  t.teardown(() => app.close());
  await deployBase(t, dir, app);
  t.is((await deploy(app, await bundle(dir, 'one'))).status, 'active');
  await untilCompressed(t, app.url, bigFile('one'));
  const identity = await fetch(`${app.url}/${BIG_PATH}`, { headers: { 'accept-encoding': 'identity' } });
  t.is(identity.headers.get('vary'), 'Accept-Encoding', 'an identity answer says it varies once variants exist');

  t.is((await deploy(app, await bundle(dir, 'two'))).status, 'active');
  await untilCompressed(t, app.url, bigFile('two'));
  t.is((await app.api('/v1/deployments/rollback', { method: 'POST', json: {} })).status, 200);
  t.deepEqual(await expectServed(t, app.url, bigFile('one')), ['br', 'gzip', null], 'the earlier version, compressed, intact');
  t.is((await app.api('/v1/deployments/rollback', { method: 'POST', json: { version: 'two' } })).status, 200);
  t.deepEqual(await expectServed(t, app.url, bigFile('two')), ['br', 'gzip', null]);
});

test('after a restart a tampered deferred variant is never served: it is checked, made again, then served', async (t) => {
  const { dir, app } = await setup(t);
  await deployBase(t, dir, app);
  const deployed = await deploy(app, await bundle(dir, 'one'));
  await untilCompressed(t, app.url, bigFile('one'));
  await app.stop();
  const brPath = join(app.dataDir, 'site', 'versions', deployed.id!, 'encoded', `${BIG_PATH}.br`);
  const good = await readFile(brPath);
  const tampered = Buffer.from(good);
  tampered[100] ^= 0xff;
  await writeFile(brPath, tampered);

  const again = await startLoggedAppliance({ dataDir: app.dataDir, key: app.key });
  t.teardown(() => again.close());
  await untilCompressed(t, again.url, bigFile('one'));
  sameBytes(t, await readFile(brPath), good);
  t.true(
    again.logs.some((l) => /differs from its record/.test(l.msg)),
    'the mismatch is logged',
  );
});

test('a first version is compressed whole before it goes live: none of its files waits, so the next deploy can take them', async (t) => {
  const { dir, app } = await setup(t);
  t.teardown(() => app.close());
  t.is((await deploy(app, await bundle(dir, 'one'))).status, 'active');
  t.deepEqual(await expectServed(t, app.url, bigFile('one')), ['br', 'gzip', null], 'compressed from the first answer on');
});
