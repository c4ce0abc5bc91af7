import test from 'ava';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runDeploy } from '../../src/cli/deploy.js';
import { captureCliIo } from './helpers/captureCliIo.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { deployAndWait, startLoggedAppliance } from './helpers/loggedAppliance.js';
import { makeSiteFiles, writeBundle } from './helpers/testBundles.js';

/** A bundle whose build report lists `failed` pages. */
async function writeFailedBundle(zipPath: string, version: string, failed: string[]): Promise<void> {
  const report = {
    pages: { expected: 4 + failed.length, rendered: 4, failed: failed.map((path) => ({ path, reason: 'MDX parse error' })) },
  };
  await writeBundle(zipPath, version, { files: makeSiteFiles(version, { '_enclave/report.json': Buffer.from(JSON.stringify(report)) }) });
}

test('a bundle with failed pages is refused with 409 naming the count and first pages, unless allowFailed, which is recorded', async (t) => {
  const dir = await makeTempDir('enclave-safety-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeBundle(join(dir, 'v1.zip'), 'v1');
  await writeFailedBundle(join(dir, 'bad.zip'), 'bad', ['/a', '/b', '/c', '/d', '/e']);
  const app = await startLoggedAppliance();
  t.teardown(() => app.close());
  t.is((await deployAndWait(app, { bundleUrl: join(dir, 'v1.zip') })).status, 'active');

  const refused = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: join(dir, 'bad.zip') } });
  t.is(refused.status, 409);
  const body = await refused.json();
  t.regex(body.error, /lists 5 failed pages \(\/a, \/b, \/c and 2 more\).*allowFailed/);
  t.regex(body.deploymentId, /^dp_/);
  const page = await (await fetch(`${app.url}/`)).text();
  t.regex(page, /content="v1"/, 'the live site is unchanged');
  const status = await (await app.api('/v1/deployments')).json();
  t.like(status, { active: { version: 'v1' }, history: [{ status: 'failed', id: body.deploymentId }] });

  // The CLI: refused the same way (exit 3), forced with --allow-failed and named with --label.
  const env = { ENCLAVE_URL: app.url, ENCLAVE_ADMIN_KEY: app.key };
  let run = captureCliIo(env);
  t.is(await runDeploy([join(dir, 'bad.zip')], run.io), 3);
  t.regex(run.text.err, /409: Bundle refused: .*5 failed pages/);
  run = captureCliIo(env);
  t.is(await runDeploy([join(dir, 'bad.zip'), '--allow-failed', '--label', 'hotfix despite /a', '--json'], run.io), 0, run.text.err);
  const forced = JSON.parse(run.text.out);
  t.like(forced, { status: 'active', version: 'bad', allowFailed: true, failedPages: 5, label: 'hotfix despite /a', outcome: 'activated' });
  t.regex(await (await fetch(`${app.url}/`)).text(), /content="bad"/);
  t.true(app.logs.some((l) => l.level === 40 && /went live with 5 failed pages \(allowFailed\)/.test(l.msg)));
  run = captureCliIo(env);
  t.is(await runDeploy(['--status'], run.io), 0);
  t.regex(run.text.out, /\* live\s+bad\s+hotfix despite \/a/);
});

test('redeploying a bundle already on disk adds no history row: the active one is unchanged, a kept one is switched back to', async (t) => {
  const dir = await makeTempDir('enclave-safety-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeBundle(join(dir, 'v1.zip'), 'v1');
  await writeBundle(join(dir, 'v2.zip'), 'v2');
  await writeFailedBundle(join(dir, 'bad.zip'), 'bad', ['/x']);
  const app = await startLoggedAppliance();
  t.teardown(() => app.close());
  const v1 = await deployAndWait(app, { bundleUrl: join(dir, 'v1.zip') });
  await deployAndWait(app, { bundleUrl: join(dir, 'v2.zip') });

  const again = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: join(dir, 'v1.zip'), label: 'back to v1' } });
  t.is(again.status, 200);
  t.like(await again.json(), { outcome: 'reactivated', id: v1.id, status: 'active', version: 'v1', label: 'back to v1' });
  t.regex(await (await fetch(`${app.url}/`)).text(), /content="v1"/);
  let status = await (await app.api('/v1/deployments')).json();
  t.deepEqual(
    status.history.map((d: { version: string; status: string }) => `${d.version}:${d.status}`),
    ['v2:kept', 'v1:active'],
  );
  t.is(status.events[0].kind, 'reactivated');

  const same = await (await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: join(dir, 'v1.zip') } })).json();
  t.like(same, { outcome: 'unchanged', id: v1.id });
  // A client polling a folded deployment's own id (after a 202) is shown the record that answers for it.
  const started = await app.features.deployments.sites.defaultSite.begin(join(dir, 'v1.zip'), { origin: 'api', pin: null });
  await started.done;
  const polled = await (await app.api(`/v1/deployments/${started.record.id}`)).json();
  t.like(polled, { id: v1.id, status: 'active' });

  // A kept version that went live with failed pages needs allowFailed again to come back.
  t.is((await deployAndWait(app, { bundleUrl: join(dir, 'bad.zip'), allowFailed: true })).status, 'active');
  await deployAndWait(app, { bundleUrl: join(dir, 'v2.zip') });
  const back = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: join(dir, 'bad.zip') } });
  t.is(back.status, 409);
  t.regex((await back.json()).error, /1 failed page;/);
  t.is((await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: join(dir, 'bad.zip'), allowFailed: true } })).status, 200);
  status = await (await app.api('/v1/deployments')).json();
  t.is(status.active.version, 'bad');
  t.is(status.history.filter((d: { version: string | null }) => d.version === 'bad').length, 1, 'one row for the bundle');
  t.is(
    status.history.filter((d: { status: string }) => d.status === 'failed').length,
    1,
    'the refused attempt stays as its own failed row',
  );
});
