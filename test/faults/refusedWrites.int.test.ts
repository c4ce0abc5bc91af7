import test from 'ava';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestAppliance } from '../helpers/testAppliance.js';
import { mountSmallDiskOrSkip, startSiteOnSmallDisk } from '../helpers/siteOnSmallDisk.js';

const ROUNDS = 25;

test(`a write refused with 507 is never visible afterwards nor persisted by the next successful write (${ROUNDS} rounds of two concurrent updates)`, async (t) => {
  const disk = mountSmallDiskOrSkip(t, 8);
  if (!disk) return;
  const dataDir = join(disk.dir, 'data');
  const app = await startTestAppliance({ dataDir });
  t.teardown(() => app.stop());
  const { projects } = app.control;
  const path = `/v1/projects/${app.projectId}`;
  t.is((await app.api(path, { method: 'PATCH', json: { name: 'durable' } })).status, 200);

  const leaks: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    disk.fill();
    // Two updates in the same tick: the second waits behind the first's write, which the full
    // disk refuses. As soon as the second hears of it, space comes back and another change is
    // made: exactly what an operator retrying after a 507 does.
    const first = projects.update(app.projectId, { name: `refused-a-${round}` });
    const second = projects.update(app.projectId, { name: `refused-b-${round}` });
    let seenOnRefusal = '';
    let next: Promise<unknown> = Promise.resolve();
    const refusal = second.then(
      () => t.fail('the second update was acknowledged on a full disk'),
      () => {
        seenOnRefusal = projects.find(app.projectId)!.name;
        disk.free();
        next = projects.update(app.projectId, { features: { staticExport: round % 2 === 0 } });
      },
    );
    const results = await Promise.allSettled([first, refusal]);
    t.is(results[0].status, 'rejected', 'the first update was refused');
    await next;
    if (seenOnRefusal !== 'durable') leaks.push(`round ${round}: memory showed ${seenOnRefusal} on refusal`);
    const read = (await (await app.api(path)).json()) as { name: string; features: { staticExport: boolean } };
    if (read.name !== 'durable') leaks.push(`round ${round}: GET showed ${read.name}`);
    if (read.features.staticExport !== (round % 2 === 0))
      leaks.push(`round ${round}: the acknowledged change after the refusal is missing`);
    const onDisk = JSON.parse(await readFile(join(dataDir, 'control.json'), 'utf8')) as { projects: { id: string; name: string }[] };
    const stored = onDisk.projects.find((p) => p.id === app.projectId)!.name;
    if (stored !== 'durable') leaks.push(`round ${round}: control.json holds ${stored}`);
  }
  t.deepEqual(leaks, [], 'no refused change was ever visible or written');
  // Indexes over the store follow the records put back from disk (a stale one would check keys against old objects).
  for (const key of app.control.keys.list()) t.is(app.control.keys.findByHash(key.hash), key, 'the key index points at the live records');
  t.log(`${ROUNDS} rounds: ${leaks.length} leaks of a refused write`);
});

test(`a rollback refused with 507 never goes live, not even after the next successful deployment write or a restart (${ROUNDS} rounds)`, async (t) => {
  t.timeout(3 * 60_000);
  const setup = await startSiteOnSmallDisk(t, 16, ['v1', 'v2']);
  if (!setup) return;
  const { disk, dataDir, overrides, bundlePath } = setup;
  let app = setup.app;
  t.teardown(() => app.stop());
  const live = async () => /content="(v\d)"/.exec(await (await fetch(`${app.url}/guides/start`)).text())?.[1];
  t.is(await live(), 'v2');

  const wrong: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    disk.fill();
    const [rollback, status] = await Promise.all([
      app.api('/v1/deployments/rollback', { method: 'POST', json: {} }),
      app.api('/v1/deployments'),
    ]);
    t.is(rollback.status, 507, `round ${round}: the rollback is refused`);
    await status.body?.cancel();
    const after = (await (await app.api('/v1/deployments')).json()) as { active: { version: string } };
    if (after.active.version !== 'v2') wrong.push(`round ${round}: GET says ${after.active.version}`);
    if ((await live()) !== 'v2') wrong.push(`round ${round}: the site serves the refused version`);
    disk.free();
    // The same bundle again: recorded as `unchanged`, a successful write of deployments.json.
    const again = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: bundlePath('v2') } });
    t.is(again.status, 200);
    const state = (await (await app.api('/v1/deployments')).json()) as { active: { version: string } };
    if (state.active.version !== 'v2' || (await live()) !== 'v2')
      wrong.push(`round ${round}: the next write made the refused rollback live`);
  }
  await app.stop();
  app = await startTestAppliance({ dataDir, overrides });
  t.is(await live(), 'v2', 'after a restart the site is still the version that was live');
  t.deepEqual(wrong, []);
  t.log(`${ROUNDS} refused rollbacks: none became live`);
});
