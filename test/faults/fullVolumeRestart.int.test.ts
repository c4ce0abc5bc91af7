import test from 'ava';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestAppliance } from '../helpers/testAppliance.js';
import { spawnAppliance } from '../helpers/spawnAppliance.js';
import { startSiteOnSmallDisk } from '../helpers/siteOnSmallDisk.js';

test('a restart on a full volume serves the active version read-only: reads work, writes answer 507, and it recovers once space is freed', async (t) => {
  const setup = await startSiteOnSmallDisk(t, 16, ['v1']);
  if (!setup) return;
  const { disk, dataDir, overrides, app: first } = setup;
  await first.stop();
  const control = await readFile(join(dataDir, 'control.json'));

  disk.fill();
  const app = await startTestAppliance({ dataDir, overrides });
  t.teardown(() => app.stop());
  const api = (path: string, init?: Parameters<typeof app.api>[1]) => app.api(path, { key: first.key, ...init });

  const page = await fetch(`${app.url}/guides/start`);
  t.is(page.status, 200, 'the active version is served');
  t.regex(await page.text(), /content="v1"/);
  t.is((await fetch(`${app.url}/_enclave/health`)).status, 200);
  const ready = await fetch(`${app.url}/_enclave/ready`);
  t.is(ready.status, 503, 'not ready for writes');
  t.is(((await ready.json()) as { store: { writable: boolean } }).store.writable, false);
  t.is((await api(`/v1/projects/${app.projectId}`)).status, 200, 'admin reads work');
  t.is((await api('/v1/deployments')).status, 200);

  const path = `/v1/projects/${app.projectId}`;
  const refused = await api(path, { method: 'PATCH', json: { name: 'while full' } });
  t.is(refused.status, 507);
  t.deepEqual(await refused.json(), { error: 'The data volume is full; nothing was written' });
  const feedback = await fetch(`${app.url}/_enclave/feedback`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ source: 'contextual', path: '/guides/start', helpful: true }),
  });
  t.is(feedback.status, 507, 'feedback is refused, not lost');
  t.deepEqual(await readFile(join(dataDir, 'control.json')), control, 'nothing was rewritten');

  disk.free();
  t.is((await api(path, { method: 'PATCH', json: { name: 'after freeing' } })).status, 200, 'writes work again without a restart');
  t.is((await fetch(`${app.url}/_enclave/ready`)).status, 200);

  // The same through the real process entry (`npm start`, the container's command).
  await app.stop();
  disk.fill();
  const child = await spawnAppliance({ ENCLAVE_DATA_DIR: dataDir });
  t.teardown(() => child.child.kill('SIGKILL'));
  const served = await fetch(`${child.url}/guides/start`);
  t.is(served.status, 200, 'the process started and serves the site');
  t.regex(await served.text(), /content="v1"/);
  t.regex(child.stdout() + child.stderr(), /read-only/, 'the log says why writes are refused');
  const write = await fetch(`${child.url}${path}`, {
    method: 'PATCH',
    headers: { Authorization: `Bearer ${first.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'x' }),
  });
  t.is(write.status, 507);
  child.child.kill('SIGTERM');
  t.is(await child.exited, 0, 'and stops cleanly');
});
