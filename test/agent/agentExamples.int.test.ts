import test, { type ExecutionContext } from 'ava';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from '../helpers/spawnAppliance.js';
import { buildSandboxLauncher, git, makeDocsRemote, runJob, startAgentAppliance } from './agentFixture.js';

const examples = join(projectRoot, 'examples', 'agents');

test('examples/agents/fix-typos.sh fixes misspellings and the fix lands on the job branch', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const work = join(dir, 'work');
  await git(dir, 'clone', '--quiet', remote, work);
  await writeFile(join(work, 'index.mdx'), '---\ntitle: Welcome\n---\n\nTeh tool will recieve teh request.\n');
  await git(work, 'commit', '--quiet', '-am', 'Typos');
  await git(work, 'push', '--quiet', 'origin', 'main');
  const app = await startAgentAppliance(t, { command: [join(examples, 'fix-typos.sh')], repository: remote });
  const job = await runJob(app, { prompt: 'Fix typos' });
  t.is(job.status, 'completed', JSON.stringify(job));
  t.is(await git(remote, 'show', `enclave/agent/${job.id}:index.mdx`), '---\ntitle: Welcome\n---\n\nTeh tool will receive the request.');
});

/** A stand-in for an on-prem model server speaking the OpenAI-compatible chat API, on 127.0.0.1. */
async function fakeModelServer(t: ExecutionContext, edits: unknown) {
  // biome-ignore lint/suspicious/noExplicitAny: request bodies as the fake server got them, checked field by field
  const requests: any[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      requests.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(body) });
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ summary: 'done', edits }) } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests };
}

for (const sandbox of ['auto', 'landlock'] as const)
  test(`examples/agents/local-model-agent.mjs applies the edits a local model returns (agent.sandbox "${sandbox}")`, async (t) => {
    await localModelAgentRun(t, sandbox);
  });

/** The README's worked example, run as configured there; under "landlock" the token file is a sandboxReadPath. */
async function localModelAgentRun(t: ExecutionContext, sandbox: 'auto' | 'landlock') {
  if (sandbox === 'landlock') buildSandboxLauncher();
  const { dir, remote } = await makeDocsRemote(t);
  const model = await fakeModelServer(t, [
    { path: 'guides/setup.mdx', content: '---\ntitle: Setup\n---\n\nInstall the thing, then restart it.\n' },
  ]);
  await writeFile(join(dir, 'token'), 'model-token-123\n');
  const app = await startAgentAppliance(t, {
    command: [
      'env',
      `AGENT_MODEL_URL=${model.url}`,
      `AGENT_API_KEY_FILE=${join(dir, 'token')}`,
      'node',
      join(examples, 'local-model-agent.mjs'),
    ],
    repository: remote,
    sandbox,
    sandboxReadPaths: sandbox === 'landlock' ? [join(dir, 'token')] : [],
  });
  const job = await runJob(app, { prompt: 'Mention the restart in the setup guide', model: 'qwen2.5-coder' });
  t.is(job.status, 'completed', JSON.stringify(job));
  t.is(await git(remote, 'diff', '--name-only', `main..enclave/agent/${job.id}`), 'guides/setup.mdx');
  t.is(model.requests.length, 1);
  t.is(model.requests[0].url, '/v1/chat/completions');
  t.is(model.requests[0].auth, 'Bearer model-token-123');
  t.is(model.requests[0].body.model, 'qwen2.5-coder');
  t.true(model.requests[0].body.messages[1].content.startsWith('Mention the restart in the setup guide'));
  t.true(model.requests[0].body.messages[1].content.includes('=== guides/setup.mdx'));
}

test('local-model-agent.mjs refuses a model answer that writes outside the docs (job fails, nothing pushed)', async (t) => {
  const { remote } = await makeDocsRemote(t);
  const model = await fakeModelServer(t, [{ path: '../../escape.mdx', content: 'x' }]);
  const app = await startAgentAppliance(t, {
    command: ['env', `AGENT_MODEL_URL=${model.url}`, 'node', join(examples, 'local-model-agent.mjs')],
    repository: remote,
  });
  const job = await runJob(app, { prompt: 'Escape' });
  t.is(job.status, 'failed');
  t.is(job.error, 'the agent exited with code 2');
  t.is(await git(remote, 'branch', '--list', 'enclave/*'), '');
});
