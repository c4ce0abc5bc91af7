import test from 'ava';
import { call, makeDocsRemote, startAgentAppliance, waitForJob, writeAgentScript } from '../agent/agentFixture.js';

test('the deprecated v1 agent endpoints: create streams the run, get and list answer in the hosted session shape', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const agent = await writeAgentScript(dir, 'say.sh', 'line=$(head -n 1)\necho "agent says: $line"\necho "$line" >> changes.md');
  const app = await startAgentAppliance(t, {
    command: [agent],
    repository: remote,
    prLinkTemplate: 'https://git.corp/{repository}/compare/{base}...{branch}',
  });

  const res = await app.api(`/v1/agent/${app.projectId}/job`, {
    method: 'POST',
    json: { branch: 'docs-update', messages: [{ role: 'user', content: 'Fix the typo' }], asDraft: true, model: 'sonnet' },
  });
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/plain/);
  const id = res.headers.get('x-session-id') ?? '';
  t.regex(id, /^aj_[0-9a-f]{16}$/);
  const streamed = await res.text();
  t.regex(streamed, /agent says: Fix the typo/, 'the run’s output is streamed');
  t.regex(streamed, new RegExp(`# job ${id} completed \\(https://git\\.corp/`), 'and its outcome closes the stream');

  const got = await call(app, `/v1/agent/${app.projectId}/job/${id}`);
  t.is(got.status, 200);
  t.like(got.body, {
    sessionId: id,
    subdomain: app.projectId,
    branch: `enclave/agent/${id}`,
    haulted: true,
    haultReason: 'completed',
    todos: [],
  });
  t.regex(got.body.pullRequestLink, /compare\/main\.\.\.enclave\/agent\//);
  t.is(got.body.createdAt, (await waitForJob(app, id)).createdAt);

  const second = await call(app, `/v2/agent/${app.projectId}/job`, { method: 'POST', json: { prompt: 'Another' } });
  await waitForJob(app, second.body.id);
  const first = await call(app, `/v1/agent/${app.projectId}/jobs?take=1`);
  t.deepEqual(
    first.body.allSessions.map((s: { sessionId: string }) => s.sessionId),
    [second.body.id],
    'newest first',
  );
  const rest = await call(app, `/v1/agent/${app.projectId}/jobs?skip=1&take=10`);
  t.deepEqual(
    rest.body.allSessions.map((s: { sessionId: string }) => s.sessionId),
    [id],
  );
  t.is((await call(app, `/v1/agent/${app.projectId}/jobs?take=0`)).status, 400);
  t.is((await call(app, `/v1/agent/${app.projectId}/job/aj_0123456789abcdef`)).status, 404);
  const bad = await call(app, `/v1/agent/${app.projectId}/job`, { method: 'POST', json: { branch: 'x', messages: [] } });
  t.is(bad.status, 400);
});
