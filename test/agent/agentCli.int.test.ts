import test from 'ava';
import { PassThrough, Readable } from 'node:stream';
import { runAgent } from '../../src/cli/agent.js';
import type { CliIo } from '../../src/cli/CliIo.js';
import type { TestAppliance } from '../helpers/testAppliance.js';
import { git, makeDocsRemote, startAgentAppliance, waitForJob, writeAgentScript } from './agentFixture.js';

/** Runs `enclave agent …` in-process against `app`, capturing its output. */
async function cli(app: TestAppliance | null, args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c) => (stdout += c));
  err.on('data', (c) => (stderr += c));
  const env = app
    ? { ENCLAVE_URL: app.url, ENCLAVE_ADMIN_KEY: app.key, ENCLAVE_PROJECT_ID: app.projectId, ...options.env }
    : { ...options.env };
  const io: CliIo = { out, err, env, stdin: options.stdin === undefined ? undefined : Readable.from([Buffer.from(options.stdin)]) };
  const code = await runAgent(args, io);
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

test('agent create --wait: exit 0 and the completed job as JSON; the prompt can come from stdin', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const agent = await writeAgentScript(dir, 'append.sh', 'cat >> index.mdx');
  const app = await startAgentAppliance(t, { command: [agent], repository: remote });
  const res = await cli(app, ['create', '--prompt', '-', '--ref', 'main', '--model', 'small', '--wait', '--timeout', '60'], {
    stdin: 'Add a footer line\n',
  });
  t.is(res.code, 0, res.stderr);
  const job = res.json();
  t.is(job.status, 'completed');
  t.is(job.model, 'small');
  t.regex(await git(remote, 'show', `enclave/agent/${job.id}:index.mdx`), /Add a footer line$/);

  const got = await cli(app, ['get', job.id]);
  t.is(got.code, 0);
  t.is(got.json().id, job.id);
});

test('agent wait: exit 1 for a failed job, 124 when still active at the timeout; API errors exit 3', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const failing = await writeAgentScript(dir, 'fail.sh', 'exit 3');
  const app = await startAgentAppliance(t, { command: [failing], repository: remote });
  const created = await cli(app, ['create', '--prompt', 'Break']);
  t.is(created.code, 0);
  const id = created.json().id;
  const waited = await cli(app, ['wait', id, '--timeout', '30s']);
  t.is(waited.code, 1);
  t.is(waited.json().status, 'failed');
  t.regex(waited.stderr, /exited with code 3/);

  const missing = await cli(app, ['get', 'aj_0000000000000000']);
  t.is(missing.code, 3);
  t.regex(missing.stderr, /404/);
  await waitForJob(app, id);
});

test('agent wait --timeout on a job that keeps running exits 124', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const slow = await writeAgentScript(dir, 'slow.sh', 'sleep 30');
  const app = await startAgentAppliance(t, { command: [slow], repository: remote });
  const created = await cli(app, ['create', '--prompt', 'Slow']);
  const started = Date.now();
  const waited = await cli(app, ['wait', created.json().id, '--timeout', '1']);
  t.is(waited.code, 124);
  t.is(waited.json().status, 'active');
  // The agent sleeps 30 s: a wait that ignored --timeout would take that long.
  t.true(Date.now() - started < 20_000);
});

test('agent: usage errors exit 2', async (t) => {
  const app = await startAgentAppliance(t, { command: ['true'], repository: '/nowhere' });
  t.is((await cli(app, [])).code, 2);
  t.is((await cli(app, ['create'])).code, 2, 'no prompt');
  t.is((await cli(app, ['get'])).code, 2, 'no id');
  t.is((await cli(app, ['wait', 'aj_x', '--timeout', 'soon'])).code, 2);
  t.is((await cli(app, ['get', 'aj_x'], { env: { ENCLAVE_PROJECT_ID: '' } })).code, 2, 'no project');
  t.is((await cli(null, ['get', 'aj_x'])).code, 2, 'no key');
});
