import test from 'ava';
import { rm } from 'node:fs/promises';
import { createAdminKey } from '../../src/features/control/createAdminKey.js';
import { createProject } from '../../src/features/control/createProject.js';
import { ManualClock } from '../../src/platform/Clock.js';
import { runEnclave } from '../helpers/runEnclave.js';
import { startTestAppliance } from '../helpers/testAppliance.js';

const HOUR = 60 * 60 * 1000;

test('a key made by an expiring key expires with it, records its creator, and dies with it on a cascading revoke', async (t) => {
  const clock = new ManualClock('2026-03-01T00:00:00.000Z');
  const app = await startTestAppliance({ clock });
  t.teardown(() => app.close());
  const mint = async (key: string, json: Record<string, unknown>) => {
    const res = await app.api('/v1/keys', { method: 'POST', key, json });
    t.is(res.status, 201);
    return (await res.json()) as { id: string; key: string; expiresAt: string | null; createdBy: string | null };
  };
  const sixHours = new Date(clock.now().getTime() + 6 * HOUR).toISOString();
  const parent = await mint(app.key, { name: 'parent', expiresAt: sixHours });
  t.is(parent.expiresAt, sixHours);

  // The red team's case: no expiry asked for; the child gets the parent's.
  const child = await mint(parent.key, { name: 'child' });
  t.is(child.expiresAt, sixHours, "no expiry → the creator's");
  t.is(child.createdBy, parent.id, 'the creator is recorded');
  const later = await mint(parent.key, { name: 'later', expiresAt: new Date(clock.now().getTime() + 48 * HOUR).toISOString() });
  t.is(later.expiresAt, sixHours, "a later expiry is cut to the creator's");
  const sooner = new Date(clock.now().getTime() + HOUR).toISOString();
  const soonerKey = await mint(parent.key, { name: 'sooner', expiresAt: sooner });
  t.is(soonerKey.expiresAt, sooner, 'an earlier one is kept');
  const grandchild = await mint(child.key, { name: 'grandchild', scope: 'read' });
  t.is(grandchild.createdBy, child.id);
  const listed = (await (await app.api('/v1/keys')).json()).keys as { id: string; createdBy: string | null }[];
  t.is(listed.find((k) => k.id === child.id)?.createdBy, parent.id, 'the list shows the creator');

  clock.advance(6 * HOUR);
  t.is((await app.api('/v1/keys', { key: child.key })).status, 401, 'the child expires with its parent');
  clock.set(new Date('2026-03-01T01:00:00.000Z'));

  // Without cascade only the key itself goes (so a script can rotate: make the new key, revoke the old).
  const rotated = await mint(app.key, { name: 'rotated' });
  const successor = await mint(rotated.key, { name: 'successor' });
  const plain = await app.api(`/v1/keys/${rotated.id}`, { method: 'DELETE' });
  t.is(plain.status, 200);
  t.deepEqual((await plain.json()).alsoRevoked, []);
  t.is((await app.api('/v1/keys', { key: successor.key })).status, 200);

  // With cascade, everything the parent minted, and what that minted, goes too.
  const cascade = await app.api(`/v1/keys/${parent.id}?cascade=true`, { method: 'DELETE' });
  t.is(cascade.status, 200);
  const body = await cascade.json();
  t.truthy(body.revokedAt);
  t.deepEqual([...body.alsoRevoked].sort(), [child.id, grandchild.id, later.id, soonerKey.id].sort());
  for (const key of [parent.key, child.key, grandchild.key, later.key, soonerKey.key])
    t.is((await app.api('/v1/keys', { key })).status, 401);
  t.is((await app.api('/v1/keys')).status, 200, 'the revoking key itself is untouched');
  t.is((await app.api(`/v1/keys/${parent.id}?cascade=maybe`, { method: 'DELETE' })).status, 400);
});

test('a project cannot revoke its last usable write key (409, nothing revoked); a non-default project recovers offline', async (t) => {
  const clock = new ManualClock('2026-03-01T00:00:00.000Z');
  const app = await startTestAppliance({ clock });
  let stopped = false;
  t.teardown(async () => {
    if (!stopped) await app.close();
    else await rm(app.dataDir, { recursive: true, force: true });
  });
  const project = await createProject(app.control, clock, 'team-b');
  const only = await createAdminKey(app.control, clock, { projectId: project.id, name: 'only', scope: 'write' });
  const reader = await createAdminKey(app.control, clock, { projectId: project.id, name: 'reader', scope: 'read' });
  const expired = await createAdminKey(app.control, clock, {
    projectId: project.id,
    name: 'soon gone',
    scope: 'write',
    expiresAt: new Date(clock.now().getTime() + HOUR),
  });
  clock.advance(2 * HOUR);
  const api = (path: string, init: Parameters<typeof app.api>[1] = {}) => app.api(path, { key: only.key, ...init });

  // Its own key, with only a read key and an expired write key left: refused.
  const self = await api(`/v1/keys/${only.record.id}`, { method: 'DELETE' });
  t.is(self.status, 409);
  t.regex((await self.json()).error, /no usable write key; create another write key first/);
  t.is((await api('/v1/keys')).status, 200, 'still works');
  t.is((await api(`/v1/keys/${reader.record.id}`, { method: 'DELETE' })).status, 200, 'a read key may go');
  t.is((await api(`/v1/keys/${expired.record.id}`, { method: 'DELETE' })).status, 200, 'an expired one too');

  // A cascade that would take every write key along is refused as a whole.
  const made = await (await api('/v1/keys', { method: 'POST', json: { name: 'made' } })).json();
  const whole = await api(`/v1/keys/${only.record.id}?cascade=true`, { method: 'DELETE' });
  t.is(whole.status, 409);
  t.is((await api('/v1/keys', { key: made.key })).status, 200, 'nothing of a refused cascade is revoked');
  // With another write key not made by it, the old one can go.
  t.is((await api(`/v1/keys/${only.record.id}`, { method: 'DELETE' })).status, 200);
  t.is((await api('/v1/keys', { key: made.key })).status, 200);

  // The default project is guarded the same way.
  const defaultList = (await (await app.api('/v1/keys')).json()).keys as { id: string }[];
  t.is(defaultList.length, 1);
  t.is((await app.api(`/v1/keys/${defaultList[0].id}`, { method: 'DELETE' })).status, 409);

  // Recovery of a non-default project that lost every write key (here by expiry): stop the
  // server, `enclave keys create --project …` on the store, start again.
  await app.stop();
  stopped = true;
  const created = await runEnclave(['keys', 'create', '--project', project.id, '--name', 'recovered'], { ENCLAVE_DATA_DIR: app.dataDir });
  t.is(created.code, 0, created.stderr);
  t.regex(created.stdout, new RegExp(`ENCLAVE_PROJECT_ID=${project.id}`));
  const again = await startTestAppliance({ clock, dataDir: app.dataDir });
  t.teardown(() => again.close());
  const recovered = /ENCLAVE_ADMIN_KEY=(\S+)/.exec(created.stdout)![1];
  t.is((await again.api(`/v1/projects/${project.id}`, { key: recovered })).status, 200, 'the recovered key manages the project');
});
