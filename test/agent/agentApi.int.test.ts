import test from 'ava';
import { join } from 'node:path';
import { ManualClock } from '../../src/platform/Clock.js';
import { createAdminKey } from '../../src/features/control/createAdminKey.js';
import { createProject } from '../../src/features/control/createProject.js';
import { call, makeDocsRemote, startAgentAppliance, waitForJob, writeAgentScript } from './agentFixture.js';

const HOUR = 60 * 60 * 1000;

test('without agent.command, create and message answer 503 with a clear error', async (t) => {
  const app = await startAgentAppliance(t, { command: [] });
  const res = await call(app, `/v2/agent/${app.projectId}/job`, {
    method: 'POST',
    json: { prompt: 'Hi', source: { repository: '/srv/docs.git' } },
  });
  t.is(res.status, 503);
  t.deepEqual(res.body, { error: 'Agent jobs are not configured on this server (set agent.command)' });
  const msg = await call(app, `/v2/agent/${app.projectId}/job/aj_0000000000000000/message`, { method: 'POST', json: { prompt: 'Hi' } });
  t.is(msg.status, 503);
  const ready = await call(app, '/_enclave/ready');
  t.regex(ready.body.modules.agent.detail, /disabled/);
});

test('create validates every field at once and rejects unknown ones; no repository anywhere is a 400', async (t) => {
  const app = await startAgentAppliance(t, { command: ['true'], repository: null });
  const bad = await call(app, `/v2/agent/${app.projectId}/job`, {
    method: 'POST',
    json: {
      prompt: '   ',
      source: { repository: '--upload-pack=touch /tmp/x', ref: '--output=/tmp/y', branch: 'x' },
      model: 'a b',
      extra: 1,
    },
  });
  t.is(bad.status, 400);
  const messages: string[] = bad.body.details.map((d: { message: string }) => d.message);
  for (const field of ['body.prompt', 'body.source.repository', 'body.source.ref', 'body.model']) {
    t.true(
      messages.some((m) => m.startsWith(field)),
      `${field} in ${JSON.stringify(messages)}`,
    );
  }
  t.true(
    messages.some((m) => m.includes('branch')),
    'unknown field in source',
  );
  t.true(
    messages.some((m) => m.includes('extra')),
    'unknown top-level field',
  );

  for (const ref of ['a..b', '-x', 'x.lock', 'a b', 'HEAD~1', 'main^']) {
    const res = await call(app, `/v2/agent/${app.projectId}/job`, {
      method: 'POST',
      json: { prompt: 'x', source: { repository: '/r', ref } },
    });
    t.is(res.status, 400, ref);
  }
  const tooLong = await call(app, `/v2/agent/${app.projectId}/job`, {
    method: 'POST',
    json: { prompt: 'x'.repeat(32_001), source: { repository: '/r' } },
  });
  t.is(tooLong.status, 400);

  const noRepo = await call(app, `/v2/agent/${app.projectId}/job`, { method: 'POST', json: { prompt: 'Fix typos' } });
  t.is(noRepo.status, 400);
  t.regex(noRepo.body.details[0].message, /^body\.source\.repository: required/);
});

test("another project's job is a 404 (and its path a 403); unknown ids are 404 {error}", async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const app = await startAgentAppliance(t, { command: [await writeAgentScript(dir, 'noop.sh', 'true')], repository: remote });
  const mine = await call(app, `/v2/agent/${app.projectId}/job`, { method: 'POST', json: { prompt: 'Mine' } });
  t.is(mine.status, 201);
  t.is(mine.headers.get('location'), `/v2/agent/${app.projectId}/job/${mine.body.id}`);

  const clock = new ManualClock();
  const other = await createProject(app.control, clock, 'other');
  const otherKey = (await createAdminKey(app.control, clock, { projectId: other.id, name: 'other', scope: 'write' })).key;
  const viaOther = await call(app, `/v2/agent/${other.id}/job/${mine.body.id}`, { key: otherKey });
  t.is(viaOther.status, 404);
  t.deepEqual(viaOther.body, { error: 'Agent job not found' });
  const msgViaOther = await call(app, `/v2/agent/${other.id}/job/${mine.body.id}/message`, {
    method: 'POST',
    json: { prompt: 'x' },
    key: otherKey,
  });
  t.is(msgViaOther.status, 404);
  t.is((await call(app, `/v2/agent/${app.projectId}/job/${mine.body.id}`, { key: otherKey })).status, 403);
  const listed = await call(app, `/v2/agent/${other.id}/jobs`, { key: otherKey });
  t.deepEqual(listed.body, { jobs: [], nextCursor: null, hasMore: false });

  const unknown = await call(app, `/v2/agent/${app.projectId}/job/aj_0123456789abcdef`);
  t.is(unknown.status, 404);
  t.deepEqual(unknown.body, { error: 'Agent job not found' });
  t.is((await call(app, `/v2/agent/${app.projectId}/job/aj_0123456789abcdef`, { key: null })).status, 401);
  await waitForJob(app, mine.body.id);
});

test('list: newest first, keyset pages that neither skip nor repeat, status filter, every bad parameter reported', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const clock = new ManualClock('2026-02-01T00:00:00.000Z');
  const app = await startAgentAppliance(t, { command: [await writeAgentScript(dir, 'noop.sh', 'true')], repository: remote }, { clock });
  const ids: string[] = [];
  for (let i = 0; i < 7; i++) {
    // Every third job points at a missing repository, so it fails.
    const source = i % 3 === 2 ? { repository: join(dir, 'missing.git') } : undefined;
    const res = await call(app, `/v2/agent/${app.projectId}/job`, { method: 'POST', json: { prompt: `job ${i}`, source } });
    t.is(res.status, 201);
    ids.push(res.body.id);
    if (i !== 4) clock.advance(1000); // jobs 4 and 5 share a timestamp: the id breaks the tie
  }
  for (const id of ids) await waitForJob(app, id);

  const seen: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 10; page++) {
    // biome-ignore lint/suspicious/noExplicitAny: a response body read as loose JSON; the test checks the fields it needs
    const res: { status: number; body: any } = await call(
      app,
      `/v2/agent/${app.projectId}/jobs?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
    );
    t.is(res.status, 200);
    seen.push(...res.body.jobs.map((j: { id: string }) => j.id));
    t.is(res.body.hasMore, res.body.nextCursor !== null);
    cursor = res.body.nextCursor;
    if (!cursor) break;
  }
  t.is(seen.length, 7);
  const tied = [ids[4], ids[5]].sort().reverse();
  t.deepEqual(seen, [ids[6], ...tied, ids[3], ids[2], ids[1], ids[0]], 'newest first, id breaking the tie');
  const all = (await call(app, `/v2/agent/${app.projectId}/jobs?limit=100`)).body;
  t.deepEqual(
    all.jobs.map((j: { id: string }) => j.id),
    seen,
    'pages concatenate to the full list',
  );
  const created = all.jobs.map((j: { createdAt: string }) => j.createdAt);
  t.deepEqual(created, [...created].sort().reverse());

  const failed = (await call(app, `/v2/agent/${app.projectId}/jobs?status=failed`)).body;
  t.deepEqual(failed.jobs.map((j: { id: string }) => j.id).sort(), [ids[2], ids[5]].sort());
  t.true(failed.jobs.every((j: { error?: string }) => typeof j.error === 'string'));
  const completed = (await call(app, `/v2/agent/${app.projectId}/jobs?status=completed`)).body;
  t.is(completed.jobs.length, 5);
  t.true(completed.jobs.every((j: object) => !('error' in j)));

  const bad = await call(app, `/v2/agent/${app.projectId}/jobs?status=done&limit=0&cursor=not-a-cursor&sort=asc`);
  t.is(bad.status, 400);
  const messages = bad.body.details.map((d: { message: string }) => d.message).join('\n');
  for (const part of ['query.status', 'query.limit', 'query.cursor', 'sort']) t.true(messages.includes(part), `${part} in ${messages}`);
  t.is((await call(app, `/v2/agent/${app.projectId}/jobs?limit=101`)).status, 400);
  t.is((await call(app, `/v2/agent/${app.projectId}/jobs?limit=abc`)).status, 400);
});

test('create and message share 100 per project per hour: the 101st gets 429 with Retry-After', async (t) => {
  const { dir } = await makeDocsRemote(t);
  const clock = new ManualClock('2026-02-01T00:00:00.000Z');
  // A missing repository makes every run fail within milliseconds; the limit is what's tested.
  const app = await startAgentAppliance(t, { command: ['true'], repository: join(dir, 'missing.git') }, { clock });
  const create = () => call(app, `/v2/agent/${app.projectId}/job`, { method: 'POST', json: { prompt: 'x' } });
  const first = await create();
  t.is(first.status, 201);
  t.is(first.headers.get('ratelimit-policy'), '"agent";q=100;w=3600');
  for (let i = 1; i < 99; i++) t.is((await create()).status, 201);
  await waitForJob(app, first.body.id);
  const message = () => call(app, `/v2/agent/${app.projectId}/job/${first.body.id}/message`, { method: 'POST', json: { prompt: 'again' } });
  t.is((await message()).status, 200, 'the 100th call is a message');

  clock.advance(HOUR / 2);
  const refused = await create();
  t.is(refused.status, 429);
  t.is(refused.headers.get('retry-after'), '1800');
  t.truthy(refused.body.error);
  t.is((await message()).status, 429, 'messages draw on the same budget');
  t.is((await call(app, `/v2/agent/${app.projectId}/jobs?limit=1`)).status, 200, 'reads are not limited');

  clock.advance(HOUR / 2);
  t.is((await create()).status, 201, 'a new hour, a new budget');
});

test('/openapi.json documents the four agent routes', async (t) => {
  const app = await startAgentAppliance(t, {});
  const doc = (await call(app, '/openapi.json')).body;
  for (const path of [
    '/v2/agent/{projectId}/job',
    '/v2/agent/{projectId}/job/{id}',
    '/v2/agent/{projectId}/job/{id}/message',
    '/v2/agent/{projectId}/jobs',
  ]) {
    t.truthy(doc.paths[path], path);
  }
});
