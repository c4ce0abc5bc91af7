import test from 'ava';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openControlStore } from '../../src/store/ControlStore.js';
import { startTestAppliance } from '../helpers/testAppliance.js';
import { mountSmallDisk } from '../helpers/smallDisk.js';

test('a full data disk: writes fail with 507, nothing stored is damaged, and the appliance recovers when space is freed', async (t) => {
  const disk = mountSmallDisk(8);
  if (!disk) {
    t.fail('mounting a tmpfs needs root; CI runs as root');
    return;
  }
  t.teardown(() => disk.unmount());
  const dataDir = join(disk.dir, 'data');
  const app = await startTestAppliance({ dataDir });
  t.teardown(() => app.stop());
  const path = `/v1/projects/${app.projectId}`;
  t.is((await app.api(path, { method: 'PATCH', json: { name: 'before the disk filled' } })).status, 200);
  const before = await readFile(join(dataDir, 'control.json'));

  disk.fill();
  const refused = await app.api(path, { method: 'PATCH', json: { name: 'while the disk is full' } });
  t.is(refused.status, 507);
  t.deepEqual(await refused.json(), { error: 'The data volume is full; nothing was written' });
  t.deepEqual(await readFile(join(dataDir, 'control.json')), before, 'the store file is untouched');
  const read = await app.api(path);
  t.is(read.status, 200, 'reads keep working');
  t.is((await read.json()).name, 'before the disk filled', 'memory went back to what is on disk');
  const ready = await app.api('/_enclave/ready', { key: null });
  t.is(ready.status, 503);
  t.is((await ready.json()).store.writable, false);

  disk.free();
  const after = await app.api(path, { method: 'PATCH', json: { name: 'after space was freed' } });
  t.is(after.status, 200);
  t.is((await app.api('/_enclave/ready', { key: null })).status, 200);
  await app.stop();
  const reopened = await openControlStore({ dataDir, sites: [] });
  t.is(reopened.projects.find(app.projectId)!.name, 'after space was freed');
});
