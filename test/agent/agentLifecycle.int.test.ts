import test from 'ava';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ManualClock } from '../../src/platform/Clock.js';
import type { AgentFeature } from '../../src/features/agent/agentFeature.js';
import { spawnAppliance } from '../helpers/spawnAppliance.js';
import { makeTempDir, startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';
import {
  call,
  makeDocsRemote,
  processGroupMembers,
  runJob,
  startAgentAppliance,
  waitForJob,
  writeAgentScript,
  PRINT_HOST_PGID,
} from './agentFixture.js';

const DAY = 24 * 60 * 60 * 1000;

function agentModule(app: TestAppliance): AgentFeature {
  return app.features.all.find((m) => m.name === 'agent') as AgentFeature;
}

/** Waits (bounded) until `path` exists: the agent has started. */
async function waitForFile(path: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`${path} did not appear`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 50)); // let the writer finish the line
  return readFile(path, 'utf8');
}

test('archiving: completed and failed jobs untouched for archiveAfterDays become archived; a message then gets 409', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const clock = new ManualClock('2026-01-01T00:00:00.000Z');
  const app = await startAgentAppliance(
    t,
    { command: [await writeAgentScript(dir, 'noop.sh', 'true')], repository: remote, archiveAfterDays: 30 },
    { clock },
  );
  const old = await runJob(app, { prompt: 'old' });
  const oldFailed = await runJob(app, { prompt: 'old, failing', source: { repository: join(dir, 'missing.git') } });
  t.is(oldFailed.status, 'failed');
  clock.advance(10 * DAY);
  const newer = await runJob(app, { prompt: 'newer' });

  clock.advance(20 * DAY - 1);
  t.is(await agentModule(app).archiveStaleJobs(clock.now()), 0, 'one millisecond short of 30 days');
  clock.advance(1);
  const now = clock.now().toISOString();
  t.is(await agentModule(app).archiveStaleJobs(clock.now()), 2);

  const archived = await call(app, `/v2/agent/${app.projectId}/job/${oldFailed.id}`);
  t.is(archived.body.status, 'archived');
  t.is(archived.body.archivedAt, now);
  t.false('error' in archived.body, 'error is only shown on failed jobs');
  t.is((await call(app, `/v2/agent/${app.projectId}/job/${old.id}`)).body.archivedAt, now);
  const stillCompleted = await call(app, `/v2/agent/${app.projectId}/job/${newer.id}`);
  t.is(stillCompleted.body.status, 'completed');
  t.is(stillCompleted.body.archivedAt, null);
  const list = await call(app, `/v2/agent/${app.projectId}/jobs?status=archived`);
  t.deepEqual(list.body.jobs.map((j: { id: string }) => j.id).sort(), [old.id, oldFailed.id].sort());

  const refused = await call(app, `/v2/agent/${app.projectId}/job/${old.id}/message`, { method: 'POST', json: { prompt: 'more' } });
  t.is(refused.status, 409);
  t.is(refused.body.status, 'archived');
  t.regex(refused.body.error, /archived/);

  // A follow-up restarts the clock: the newer job, messaged at day 30, is not archived at day 40.
  t.is((await call(app, `/v2/agent/${app.projectId}/job/${newer.id}/message`, { method: 'POST', json: { prompt: 'again' } })).status, 200);
  await waitForJob(app, newer.id);
  clock.advance(10 * DAY);
  t.is(await agentModule(app).archiveStaleJobs(clock.now()), 0);
  clock.advance(20 * DAY);
  t.is(await agentModule(app).archiveStaleJobs(clock.now()), 1);
});

test('graceful stop during a run kills the agent and fails the job; the next start shows it', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const pidFile = join(dir, 'agent.pid');
  const agent = await writeAgentScript(dir, 'slow.sh', `${PRINT_HOST_PGID} > ${pidFile}\nsleep 300`);
  const dataDir = await makeTempDir();
  const first = await startTestAppliance({ dataDir, overrides: { agent: { command: [agent], repository: remote } } });
  const key = first.key;
  const created = await call(first, `/v2/agent/${first.projectId}/job`, { method: 'POST', json: { prompt: 'slow' } });
  const queued = await call(first, `/v2/agent/${first.projectId}/job`, { method: 'POST', json: { prompt: 'waits in the queue' } });
  const pgid = Number(await waitForFile(pidFile));
  const started = Date.now();
  await first.close();
  // Unbounded, stop would wait for the agent's `sleep 300`; far below that, far above any load.
  t.true(Date.now() - started < 60_000, 'stop is bounded');
  t.deepEqual(processGroupMembers(pgid), [], 'the agent is gone');

  const second = await startTestAppliance({ dataDir, overrides: { agent: { command: [agent], repository: remote } } });
  t.teardown(async () => {
    await second.close();
    await (await import('node:fs/promises')).rm(dataDir, { recursive: true, force: true });
  });
  for (const id of [created.body.id, queued.body.id]) {
    const job = await call(second, `/v2/agent/${second.projectId}/job/${id}`, { key });
    t.is(job.body.status, 'failed');
    t.is(job.body.error, 'interrupted by shutdown');
    t.is(job.body.source.ref, null);
  }
  t.deepEqual(await readdir(join(dataDir, 'agent', 'work')).catch(() => []), []);
});

test('a crash during a run: on the next start the job is failed "interrupted" and the orphaned agent is stopped', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const pidFile = join(dir, 'agent.pid');
  const agent = await writeAgentScript(dir, 'slow.sh', `${PRINT_HOST_PGID} > ${pidFile}\nsleep 300`);
  const dataDir = await makeTempDir();
  t.teardown(() => import('node:fs/promises').then((fs) => fs.rm(dataDir, { recursive: true, force: true })));
  const server = await spawnAppliance({
    ENCLAVE_DATA_DIR: dataDir,
    ENCLAVE_AGENT__COMMAND: JSON.stringify([agent]),
    ENCLAVE_AGENT__REPOSITORY: remote,
  });
  t.teardown(() => server.child.kill('SIGKILL'));
  const key = /ENCLAVE_ADMIN_KEY=(\S+)/.exec(server.stdout())![1];
  const projectId = /ENCLAVE_PROJECT_ID=(\S+)/.exec(server.stdout())![1];
  const res = await fetch(`${server.url}/v2/agent/${projectId}/job`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ prompt: 'slow' }),
  });
  t.is(res.status, 201);
  const jobId = ((await res.json()) as { id: string }).id;
  const pgid = Number(await waitForFile(pidFile));
  await new Promise((r) => setTimeout(r, 300)); // the pid is recorded right after spawn
  server.child.kill('SIGKILL');
  await server.exited;
  t.true(processGroupMembers(pgid).length > 0, 'the crash left the agent running');

  const restarted = await startTestAppliance({ dataDir, overrides: { agent: { command: [agent], repository: remote } } });
  t.teardown(() => restarted.close());
  const job = await call(restarted, `/v2/agent/${projectId}/job/${jobId}`, { key });
  t.is(job.status, 200);
  t.is(job.body.status, 'failed');
  t.is(job.body.error, 'interrupted');
  t.deepEqual(processGroupMembers(pgid), [], 'recovery stopped the orphan');
  t.deepEqual(await readdir(join(dataDir, 'agent', 'work')), [], 'its scratch clone is gone');
});

for (const concurrency of [1, 2]) {
  test(`the run queue keeps to agent.concurrency = ${concurrency}`, async (t) => {
    const { dir, remote } = await makeDocsRemote(t);
    const spans = join(dir, 'spans');
    const marks = join(dir, 'marks');
    await mkdir(marks);
    await chmod(marks, 0o777); // the agent runs as another user when the tests run as root
    // Each run marks its start and waits (at most 5 s) until `concurrency` runs have started, so
    // runs that may overlap really do, however long each clone took; then it stays a moment
    // longer, in which a run beyond the limit would be caught overlapping.
    const agent = await writeAgentScript(
      dir,
      'timed.sh',
      [
        's=$(date +%s%N)',
        `mktemp -p ${marks} started.XXXXXX >/dev/null`,
        'i=0',
        `while [ "$(ls ${marks} | grep -c '^started')" -lt ${concurrency} ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done`,
        'sleep 0.4',
        `echo "$s $(date +%s%N)" >> ${spans}`,
      ].join('\n'),
    );
    const app = await startAgentAppliance(t, { command: [agent], repository: remote, concurrency });
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push((await call(app, `/v2/agent/${app.projectId}/job`, { method: 'POST', json: { prompt: `job ${i}` } })).body.id);
    for (const id of ids) t.is((await waitForJob(app, id)).status, 'completed');
    const runs = (await readFile(spans, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => l.split(' ').map(BigInt));
    t.is(runs.length, 3);
    // The most runs alive at any one instant.
    let peak = 0;
    for (const [start] of runs) peak = Math.max(peak, runs.filter(([s, e]) => s <= start && start < e).length);
    t.is(peak, concurrency);
  });
}
