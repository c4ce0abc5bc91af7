import test from 'ava';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runDeploy } from '../../src/cli/deploy.js';
import { captureCliIo } from './helpers/captureCliIo.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { deployAndWait, getWithHost, requestWithHost, startLoggedAppliance, type LoggedAppliance } from './helpers/loggedAppliance.js';
import { makeSiteFiles, writeBundle } from './helpers/testBundles.js';

const A = 'a.docs.internal';
const B = 'b.docs.internal';
const C = 'c.docs.internal';
const D = 'd.docs.internal';

/** The version a Host's `/` is served from (each test bundle names its version in a meta tag). */
async function versionAt(app: LoggedAppliance, host: string): Promise<string | number> {
  const res = await getWithHost(`${app.url}/`, host);
  if (res.status !== 200) return res.status;
  return /name="enclave-version" content="([^"]+)"/.exec(res.body)?.[1] ?? 'no version tag';
}

/**
 * A test bundle built for the site its version names (a… → A, b… → B, …; v… → the default
 * test domain): a bundle goes only to the site its manifest names.
 */
function writeSiteBundle(zipPath: string, version: string, options: Parameters<typeof writeBundle>[2] = {}) {
  const domain = ({ a: A, b: B, c: C, d: D } as Record<string, string>)[version[0]] ?? 'docs.test.internal';
  return writeBundle(zipPath, version, { ...options, manifestFields: { domain, ...options.manifestFields } });
}

async function deploy(app: LoggedAppliance, bundleUrl: string, domain?: string): Promise<void> {
  const record = await deployAndWait(app, { bundleUrl, ...(domain ? { domain } : {}) });
  if (record.status !== 'active') throw new Error(`deploy ${bundleUrl} to ${domain ?? 'default'}: ${JSON.stringify(record)}`);
}

test('two sites served by Host with separate deployments and rollback; other hosts get the default site; restart keeps it', async (t) => {
  const dir = await makeTempDir('enclave-sites-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'src'));
  const zips: Record<string, string> = {};
  for (const v of ['v1', 'a1', 'a2', 'b1', 'b2']) await writeSiteBundle((zips[v] = join(dir, `${v}.zip`)), v);
  const sites = [A, B].map((domain) => ({ domain, source: join(dir, 'src') }));
  const dataDir = join(dir, 'data');
  const app = await startLoggedAppliance({ dataDir, overrides: { sites } });
  await deploy(app, zips.v1);
  for (const v of ['a1', 'a2']) await deploy(app, zips[v], A);
  for (const v of ['b1', 'b2']) await deploy(app, zips[v], B);

  t.is(await versionAt(app, A), 'a2');
  t.is(await versionAt(app, `${A.toUpperCase()}:8080`), 'a2', 'Host is matched without port, case-insensitively');
  t.is(await versionAt(app, B), 'b2');
  for (const other of ['127.0.0.1', 'localhost', '[::1]', 'unknown.example', 'sample.enclave.internal'])
    t.is(await versionAt(app, other), 'v1', `${other} → default site`);

  const rolled = await app.api('/v1/deployments/rollback', { method: 'POST', json: { domain: A } });
  t.is(rolled.status, 200);
  t.like(await rolled.json(), { version: 'a1', site: A });
  t.is(await versionAt(app, A), 'a1');
  t.is(await versionAt(app, B), 'b2', "B's deployments are its own");
  t.is(await versionAt(app, '127.0.0.1'), 'v1');

  const statusA = await (await app.api(`/v1/deployments?domain=${A}`)).json();
  t.like(statusA, { site: A, active: { version: 'a1', site: A }, kept: [{ version: 'a2' }] });
  t.is(statusA.history.length, 2);
  const statusDefault = await (await app.api('/v1/deployments')).json();
  t.like(statusDefault, { site: null, active: { version: 'v1', site: null } });
  t.is(statusDefault.history.length, 1);
  t.is((await app.api('/v1/deployments?domain=nope.internal')).status, 404);
  const notConfigured = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: zips.a1, domain: 'nope.internal' } });
  t.is(notConfigured.status, 404);
  t.regex((await notConfigured.json()).error, /No site nope\.internal is configured/);
  const byId = await (await app.api(`/v1/deployments/${statusA.active.id}`)).json();
  t.is(byId.site, A, 'GET /v1/deployments/{id} finds any site’s deployment');

  // The CLI takes --domain for status, rollback and deploy.
  const env = { ENCLAVE_URL: app.url, ENCLAVE_ADMIN_KEY: app.key };
  let run = captureCliIo(env);
  t.is(await runDeploy(['--status', '--domain', B], run.io), 0);
  t.regex(run.text.out, /\* live\s+b2/);
  run = captureCliIo(env);
  t.is(await runDeploy(['--rollback', '--domain', B, '--yes'], run.io), 0, run.text.err);
  t.is(await versionAt(app, B), 'b1');
  run = captureCliIo(env);
  t.is(await runDeploy([zips.b2, '--domain', B, '--label', 'b2 again'], run.io), 0, run.text.err);
  t.regex(run.text.err, /switched back to version b2/);
  t.is(await versionAt(app, B), 'b2');
  t.is(await versionAt(app, A), 'a1');

  // A restart serves each site's own version at once, from disk.
  const key = app.key;
  await app.stop();
  const again = await startLoggedAppliance({ dataDir, overrides: { sites }, key });
  t.teardown(() => again.close());
  t.is(await versionAt(again, A), 'a1');
  t.is(await versionAt(again, B), 'b2');
  t.is(await versionAt(again, '127.0.0.1'), 'v1');
});

test('per-site staticExport settings: fetched on start, pinned per site; a refused site is degraded while the others serve', async (t) => {
  const dir = await makeTempDir('enclave-sites-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeSiteBundle(join(dir, 'c1.zip'), 'c1');
  await writeSiteBundle(join(dir, 'd1.zip'), 'd1');
  await writeSiteBundle(join(dir, 'v1.zip'), 'v1');
  const app = await startLoggedAppliance({
    overrides: {
      staticExport: { enabled: true, bundleUrl: join(dir, 'v1.zip') },
      sites: [
        { domain: C, source: dir, staticExport: { enabled: true, bundleUrl: join(dir, 'c1.zip'), version: 'c1' } },
        { domain: D, source: dir, staticExport: { enabled: true, bundleUrl: join(dir, 'd1.zip'), version: 'd9' } },
      ],
    },
  });
  t.teardown(() => app.close());
  const state = await waitUntil('every configured fetch finished', async () => {
    const ready = (await (await fetch(`${app.url}/_enclave/ready`)).json()).modules.deployments;
    return ready.status === 'degraded' &&
      ready.sites?.[C]?.status === 'ok' &&
      ready.sites?.[D]?.status === 'unavailable' &&
      /failed/.test(ready.sites[D].detail)
      ? ready
      : null;
  });
  t.is(await versionAt(app, C), 'c1');
  t.is(await versionAt(app, D), 503, 'the pin refused d1 and D has no other version');
  t.is(await versionAt(app, '127.0.0.1'), 'v1');
  const statusD = await (await app.api(`/v1/deployments?domain=${D}`)).json();
  t.regex(statusD.lastError.reason, /does not match the pinned version "d9"/);
  t.is(state.version, 'v1', 'readiness names the default site’s version');
});

test('feedback posted on site B is checked against B’s pages and recorded with B’s domain', async (t) => {
  const dir = await makeTempDir('enclave-sites-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const filesA = makeSiteFiles('a1');
  delete filesA['reference.html'];
  await writeSiteBundle(join(dir, 'a1.zip'), 'a1', { files: filesA });
  await writeSiteBundle(join(dir, 'b1.zip'), 'b1');
  const app = await startLoggedAppliance({ overrides: { sites: [A, B].map((domain) => ({ domain, source: dir })) } });
  t.teardown(() => app.close());
  await deploy(app, join(dir, 'a1.zip'), A);
  await deploy(app, join(dir, 'b1.zip'), B);
  const post = (host: string, path: string) =>
    requestWithHost(`${app.url}/_enclave/feedback`, host, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ source: 'thumbs_only', path, helpful: true }),
    });

  const onA = await post(A, '/reference');
  t.is(onA.status, 400, 'A has no /reference page');
  t.regex(onA.body, /not a page of the live site/);
  const onB = await post(B, '/reference');
  t.is(onB.status, 201, onB.body);
  t.is((await post('127.0.0.1', '/')).status, 503, 'the default site has nothing deployed');
  const list = await (await app.api(`/v1/analytics/${app.projectId}/feedback`)).json();
  t.is(list.feedback.length, 1);
  t.like(list.feedback[0], { id: JSON.parse(onB.body).id, path: '/reference', domain: B });
});

test('staticExport.domain names the default site: deploys and lookups with that domain go to it, and its Host is served by it', async (t) => {
  const dir = await makeTempDir('enclave-sites-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeSiteBundle(join(dir, 'v1.zip'), 'v1', { manifestFields: { domain: A } });
  const app = await startLoggedAppliance({ overrides: { staticExport: { domain: A }, sites: [{ domain: A, source: dir }] } });
  t.teardown(() => app.close());
  await deploy(app, join(dir, 'v1.zip'), A);
  const status = await (await app.api(`/v1/deployments?domain=${A}`)).json();
  t.like(status, { site: null, active: { version: 'v1', site: null } });
  t.is(await versionAt(app, A), 'v1');
  t.is(await versionAt(app, '127.0.0.1'), 'v1', 'the default site and A are one site');
});

test('a site removed through /v1/sites stops being served at once, without a restart, and its versions are deleted', async (t) => {
  const dir = await makeTempDir('enclave-sites-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const source = join(dir, 'src');
  await mkdir(source);
  await writeFile(join(source, 'docs.json'), JSON.stringify({ name: 'Removable', navigation: { pages: ['index'] } }));
  await writeFile(join(source, 'index.mdx'), '# Removable\n');
  for (const v of ['v1', 'c1']) await writeSiteBundle(join(dir, `${v}.zip`), v);
  const app = await startLoggedAppliance({});
  t.teardown(() => app.close());
  await deploy(app, join(dir, 'v1.zip'));
  t.is((await app.api('/v1/sites', { method: 'POST', json: { domain: C, source } })).status, 201);
  await deploy(app, join(dir, 'c1.zip'), C);
  t.is(await versionAt(app, C), 'c1');
  const siteDir = join(app.dataDir, 'site', 'by-domain', C);
  t.true(existsSync(siteDir));

  t.is((await app.api(`/v1/sites/${C}`, { method: 'DELETE' })).status, 204);
  t.is(await versionAt(app, C), 'v1', 'the removed site’s Host falls to the default site at once');
  t.is((await app.api(`/v1/deployments?domain=${C}`)).status, 404);
  t.true(await waitUntil('versions deleted', async () => !existsSync(siteDir), 5000), 'its versions are deleted from disk');

  t.is((await app.api('/v1/sites', { method: 'POST', json: { domain: C, source } })).status, 201);
  t.is(await versionAt(app, C), 'v1', 'added again, it starts with no deployments of its own');
});
