import test from 'ava';
import { spawnAppliance } from '../helpers/spawnAppliance.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { startLoggedAppliance } from './helpers/loggedAppliance.js';

test('while the first version is being prepared, / answers 503 saying so and asks again soon', async (t) => {
  const app = await startLoggedAppliance({});
  t.teardown(() => app.close());
  const live = app.features.deployments.sites.defaultSite.live;
  live.expectFirstVersion('the first export of the sample docs (sample.enclave.internal) is still running');
  const coming = await fetch(`${app.url}/`);
  t.is(coming.status, 503);
  t.is(coming.headers.get('retry-after'), '3');
  const body = await coming.text();
  t.regex(body, /the first export of the sample docs \(sample\.enclave\.internal\) is still running/);
  t.regex(body, /<meta http-equiv="refresh" content="3">/, 'the page reloads by itself');

  live.expectFirstVersion(null);
  const idle = await fetch(`${app.url}/`);
  t.is(idle.status, 503);
  t.is(idle.headers.get('retry-after'), '30');
  t.regex(await idle.text(), /Documentation not deployed yet/, 'nothing on its way: the page says how to deploy');
});

test('the start banner says the site is up once the first export finishes, and then says it is up', async (t) => {
  const server = await spawnAppliance({ ENCLAVE_DATA_DIR: await makeTempDir('enclave-banner-') });
  t.teardown(() => server.child.kill('SIGKILL'));
  t.true(await waitUntil('banner printed', async () => / ready\n/.test(server.stderr()), 30_000), server.stderr());
  t.regex(server.stderr(), /docs site: +http:\/\/\S+\/ {2}\(the first export is running: up in seconds, when "Docs site is up" is printed/);
  // Whenever / answers before then, it says why.
  const early = await fetch(`${server.url}/`);
  if (early.status === 503) t.regex(await early.text(), /first export of the sample docs .* is still running/);
  else t.is(early.status, 200);
  t.true(
    await waitUntil('site up', async () => /Docs site is up: http:\/\/\S+\/ \(version \S+\)\n/.test(server.stderr()), 120_000),
    server.stderr(),
  );
  t.is((await fetch(`${server.url}/`)).status, 200, 'up when it says so');
});
