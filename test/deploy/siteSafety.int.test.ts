import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { runDeploy } from '../../src/cli/deploy.js';
import { runSites } from '../../src/cli/sites.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { captureCliIo } from './helpers/captureCliIo.js';
import { deployAndWait, getWithHost, startLoggedAppliance } from './helpers/loggedAppliance.js';
import { writeBundle } from './helpers/testBundles.js';

const A = 'a.docs.internal';
const B = 'b.docs.internal';

async function versionAt(url: string, host: string): Promise<string | number> {
  const res = await getWithHost(`${url}/`, host);
  if (res.status !== 200) return res.status;
  return /name="enclave-version" content="([^"]+)"/.exec(res.body)?.[1] ?? 'no version tag';
}

async function docsSource(dir: string): Promise<string> {
  const source = join(dir, 'src');
  await mkdir(source, { recursive: true });
  await writeFile(join(source, 'docs.json'), JSON.stringify({ name: 'Docs', navigation: { pages: ['index'] } }));
  await writeFile(join(source, 'index.mdx'), '# Docs\n');
  return source;
}

test('enclave deploy puts a bundle only on the site its manifest names, unless --allow-other-domain', async (t) => {
  const dir = await makeTempDir('enclave-site-safety-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const source = await docsSource(dir);
  const zips = { v1: join(dir, 'v1.zip'), a1: join(dir, 'a1.zip'), b1: join(dir, 'b1.zip') };
  await writeBundle(zips.v1, 'v1');
  await writeBundle(zips.a1, 'a1', { manifestFields: { domain: A } });
  await writeBundle(zips.b1, 'b1', { manifestFields: { domain: B } });
  const app = await startLoggedAppliance({ overrides: { sites: [A, B].map((domain) => ({ domain, source })) } });
  t.teardown(() => app.close());
  t.like(await deployAndWait(app, { bundleUrl: zips.v1 }), { status: 'active' }, 'a default site with nothing live takes its first bundle');
  const env = { ENCLAVE_URL: app.url, ENCLAVE_ADMIN_KEY: app.key };

  let run = captureCliIo(env);
  t.is(await runDeploy([zips.b1], run.io), 3, 'another site’s bundle without --domain is refused');
  t.regex(run.text.err, /built for b\.docs\.internal .* would replace the default site, which serves docs\.test\.internal/);
  t.regex(run.text.err, /enclave deploy --domain b\.docs\.internal/);
  t.is(await versionAt(app.url, '127.0.0.1'), 'v1', 'the default site is untouched');

  run = captureCliIo(env);
  t.is(await runDeploy([zips.b1, '--domain', B], run.io), 0, run.text.err);
  t.is(await versionAt(app.url, B), 'b1');

  run = captureCliIo(env);
  t.is(await runDeploy([zips.a1, '--domain', B], run.io), 3, 'a bundle named for A is refused on B');
  t.regex(run.text.err, /built for a\.docs\.internal .* would replace the site b\.docs\.internal/);
  t.is(await versionAt(app.url, B), 'b1');

  run = captureCliIo(env);
  t.is(await runDeploy([zips.a1, '--domain', B, '--allow-other-domain'], run.io), 0, run.text.err);
  t.is(await versionAt(app.url, B), 'a1', 'forced, it goes where it was told');
});

test('a bad option on deploy gets the CLI’s own one-line message', async (t) => {
  for (const [args, problem] of [
    [['--bogus'], /^enclave deploy: unknown option --bogus\n/],
    [['--domain'], /^enclave deploy: --domain needs a value\n/],
    [['--yes=1', '--rollback'], /^enclave deploy: --yes takes no value\n/],
    [['x.zip', '--to', 'v1'], /^enclave deploy: --to goes with --rollback\n/],
  ] as const) {
    const run = captureCliIo({ ENCLAVE_ADMIN_KEY: 'enc_x' });
    t.is(await runDeploy([...args], run.io), 2);
    t.regex(run.text.err, problem);
    t.notRegex(run.text.err, /positional argument|place it at the end|ERR_PARSE_ARGS/, 'none of Node’s parser text');
    t.regex(run.text.err, /usage:\n {2}enclave deploy/);
  }
});

test('sites remove says what goes offline, asks or takes --yes, and deletes the site’s versions', async (t) => {
  const dir = await makeTempDir('enclave-site-remove-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const source = await docsSource(dir);
  await writeBundle(join(dir, 'b1.zip'), 'b1', { manifestFields: { domain: B } });
  await writeBundle(join(dir, 'b2.zip'), 'b2', { manifestFields: { domain: B } });
  const app = await startLoggedAppliance({});
  t.teardown(() => app.close());
  t.is((await app.api('/v1/sites', { method: 'POST', json: { domain: B, source } })).status, 201);
  for (const v of ['b1', 'b2']) t.like(await deployAndWait(app, { bundleUrl: join(dir, `${v}.zip`), domain: B }), { status: 'active' });
  const siteDir = join(app.dataDir, 'site', 'by-domain', B);
  const env = { ENCLAVE_DATA_DIR: app.dataDir };

  let run = captureCliIo(env);
  t.is(await runSites(['remove', B], run.io), 1, 'no terminal and no --yes: refused');
  t.regex(
    run.text.err,
    /Remove site b\.docs\.internal\? Its live version b2 goes offline: requests for b\.docs\.internal get the default site\./,
  );
  t.regex(run.text.err, /2 versions \(b2, b1\) on disk are deleted\. Refusing without --yes/);
  t.is(await versionAt(app.url, B), 'b2', 'still served');

  run = captureCliIo(env);
  t.is(await runSites(['remove', B, '--yes'], run.io), 0, run.text.err);
  t.regex(run.text.err, /Removed site b\.docs\.internal \(source .*\): no longer served or exported; deleted 2 versions \(b2, b1\)/);
  t.is(await versionAt(app.url, B), 503, 'its Host gets the default site, which has nothing live');
  t.true(await waitUntil('versions deleted', async () => !existsSync(siteDir), 5000), 'the versions are gone from disk');

  // With the server stopped, the CLI removes the site and its versions itself.
  t.is((await app.api('/v1/sites', { method: 'POST', json: { domain: B, source } })).status, 201);
  t.like(await deployAndWait(app, { bundleUrl: join(dir, 'b1.zip'), domain: B }), { status: 'active' });
  await app.stop();
  run = captureCliIo(env);
  t.is(await runSites(['remove', B, '--yes'], run.io), 0, run.text.err);
  t.regex(run.text.err, /deleted 1 version \(b1\)\.\n$/);
  t.false(existsSync(siteDir));
});
