import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { call, git, makeDocsRemote, startAgentAppliance, waitForJob, writeAgentScript } from '../agent/agentFixture.js';

test('a message to an active job is accepted (200), runs after the current run, and prLink stays null meanwhile', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const gate = join(dir, 'go');
  // The first run waits for the test to open the gate, so the message surely arrives while it runs.
  const agent = await writeAgentScript(
    dir,
    'gated.sh',
    `line=$(head -n 1)\ni=0\nwhile [ ! -f ${gate} ] && [ $i -lt 2400 ]; do sleep 0.05; i=$((i+1)); done\necho "$line" >> changes.md`,
  );
  const app = await startAgentAppliance(t, {
    command: [agent],
    repository: remote,
    prLinkTemplate: 'https://git.corp/{repository}/compare/{base}...{branch}',
  });
  const created = await call(app, `/v2/agent/${app.projectId}/job`, { method: 'POST', json: { prompt: 'First change' } });
  t.is(created.status, 201);
  const id = created.body.id;

  const sent = await call(app, `/v2/agent/${app.projectId}/job/${id}/message`, { method: 'POST', json: { prompt: 'Follow-up' } });
  t.is(sent.status, 200, JSON.stringify(sent.body));
  t.is(sent.body.status, 'active');
  t.is(sent.body.prLink, null);
  await writeFile(gate, '');

  const done = await waitForJob(app, id);
  t.is(done.status, 'completed', JSON.stringify(done));
  t.truthy(done.prLink, 'the link appears once the job is no longer active');
  const branch = `enclave/agent/${id}`;
  // Both prompts ran, one after the other, on the same branch.
  t.is(await git(remote, 'log', '--format=%s', `main..${branch}`), 'Follow-up\nFirst change');
  t.is(await git(remote, 'show', `${branch}:changes.md`), 'First change\nFollow-up');
});
