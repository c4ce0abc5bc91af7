import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { createAdminKey } from '../../src/features/control/createAdminKey.js';
import { generateAdminKey, isWellFormedAdminKey } from '../../src/features/control/adminKeyFormat.js';
import { createProject } from '../../src/features/control/createProject.js';
import { startTestAppliance } from '../helpers/testAppliance.js';

test('key format: prefix, 40 base62, 6-char checksum; a one-character typo fails the checksum', (t) => {
  const key = generateAdminKey();
  t.regex(key, /^enc_[0-9A-Za-z]{46}$/);
  t.true(isWellFormedAdminKey(key));
  const i = 10;
  const typo = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
  t.false(isWellFormedAdminKey(typo));
  t.false(isWellFormedAdminKey(key.slice(0, -1)));
  t.false(isWellFormedAdminKey(`x${key.slice(1)}`));
});

test('auth matrix: missing, malformed, unknown, revoked, expired → 401; other project, read scope on write → 403', async (t) => {
  const clock = new ManualClock('2026-03-01T00:00:00.000Z');
  const app = await startTestAppliance({ clock });
  t.teardown(() => app.close());
  const path = `/v1/projects/${app.projectId}`;

  const ok = await app.api(path);
  t.is(ok.status, 200);
  t.is((await ok.json()).id, app.projectId);

  for (const [label, key, header] of [
    ['missing', null, undefined],
    ['not bearer', null, `Basic ${Buffer.from('a:b').toString('base64')}`],
    ['malformed', 'enc_short', undefined],
    ['bad checksum', `${app.key.slice(0, -1)}${app.key.endsWith('A') ? 'B' : 'A'}`, undefined],
    ['unknown but well-formed', generateAdminKey(), undefined],
  ] as const) {
    const res = await app.api(path, { key, headers: header ? { Authorization: header } : {} });
    t.is(res.status, 401, label);
    t.is(res.headers.get('www-authenticate'), 'Bearer', label);
    t.deepEqual(await res.json(), { error: 'Missing or invalid admin key' }, label);
  }

  const expiring = await createAdminKey(app.control, clock, {
    projectId: app.projectId,
    name: 'short',
    scope: 'write',
    expiresAt: new Date('2026-03-01T01:00:00.000Z'),
  });
  t.is((await app.api(path, { key: expiring.key })).status, 200);
  clock.advance(60 * 60 * 1000);
  t.is((await app.api(path, { key: expiring.key })).status, 401, 'expired exactly at expiresAt');

  const revoked = await createAdminKey(app.control, clock, { projectId: app.projectId, name: 'gone', scope: 'write' });
  t.is((await app.api(path, { key: revoked.key })).status, 200);
  await app.control.keys.revoke(revoked.record.id, clock.now());
  t.is((await app.api(path, { key: revoked.key })).status, 401);

  const other = await createProject(app.control, clock, 'other');
  const otherKey = await createAdminKey(app.control, clock, { projectId: other.id, name: 'other', scope: 'write' });
  const cross = await app.api(path, { key: otherKey.key });
  t.is(cross.status, 403);
  t.truthy((await cross.json()).error);
  t.is((await app.api(`/v1/projects/${other.id}`, { key: otherKey.key })).status, 200);

  const reader = await createAdminKey(app.control, clock, { projectId: app.projectId, name: 'reader', scope: 'read' });
  t.is((await app.api(path, { key: reader.key })).status, 200);
  t.is((await app.api(path, { key: reader.key, method: 'HEAD' })).status, 200);
});

test('stored keys keep only a hash and the last four characters', async (t) => {
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const record = app.control.keys.list()[0];
  t.is(record.last4, app.key.slice(-4));
  t.false(JSON.stringify(app.control.document.data).includes(app.key));
  t.regex(record.hash, /^[0-9a-f]{64}$/);
});
