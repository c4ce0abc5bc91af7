import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_INTERRUPTIONS } from '../../src/features/exports/recoverInterruptedJobs.js';
import type { ExportsData } from '../../src/features/exports/ExportJobRecord.js';
import { spawnAppliance } from '../helpers/spawnAppliance.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import { finished, makeSyntheticCorpus, startExport, waitForJob } from './exportTestHelpers.js';
import { processAlive, waitUntil } from '../helpers/waitUntil.js';

/** Pages of the site stopped gracefully mid-render, and of the one whose server is killed. */
const RESTART_PAGES = 800;
const KILL_PAGES = 600;

async function readJobs(dataDir: string): Promise<ExportsData['jobs']> {
  return (JSON.parse(await readFile(join(dataDir, 'exports.json'), 'utf8')) as ExportsData).jobs;
}

test('graceful stop during a running job: the worker is stopped, the job re-queued and resumed to completion after the restart', async (t) => {
  t.timeout(15 * 60_000); // a hang guard: these renders take minutes beside CPU hogs
  // Big enough that the job is still rendering when the stop lands (it is stopped as soon as 50
  // pages are seen); 800 pages do that and cost about a quarter of the 3,000 this rendered twice.
  const source = await makeSyntheticCorpus(RESTART_PAGES);
  const dataDir = await makeTempDir();
  const overrides = { sites: [{ domain: 'big.test', source }] };
  let app = await startTestAppliance({ dataDir, overrides });
  const key = app.key;
  const started = await startExport(app, { domain: 'big.test' });
  const { job: midway } = await waitForJob(app, started.jobId, (j) => j.status === 'running' && j.pageCount >= 50);
  t.true(midway.progress > 0 && midway.progress < 90, `mid-render (progress ${midway.progress})`);
  const pid = app.features.exports.workerPids().get(started.jobId)!;
  t.true(processAlive(pid), 'worker process is running');

  const t0 = Date.now();
  await app.stop();
  const stopMs = Date.now() - t0;
  // A stop that waited for the worker would wait for the rest of the render, and then find the
  // job completed, not re-queued as asserted below; the bound only keeps a hung stop from passing.
  t.true(stopMs < 30_000, `stop is bounded (${stopMs} ms)`);
  t.false(processAlive(pid), 'worker process is gone after stop');
  const onDisk = (await readJobs(dataDir)).find((j) => j.id === started.jobId);
  t.like(onDisk, { id: started.jobId, status: 'queued', progress: 0, interruptions: 0 });

  app = await startTestAppliance({ dataDir, overrides });
  t.teardown(() => app.close());
  const api = (path: string) => fetch(`${app.url}${path}`, { headers: { Authorization: `Bearer ${key}` } });
  const deadline = Date.now() + 12 * 60_000;
  let last;
  while (Date.now() < deadline) {
    last = await (await api(`/v1/static-export/jobs/${started.jobId}`)).json();
    if (last.status === 'completed' || last.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  t.is(last.status, 'completed', JSON.stringify(last));
  t.is(last.pageCount, RESTART_PAGES);
  t.is(last.progress, 100);
});

test('kill -9 of the server during a running job: on boot the job is resumed, its orphaned worker exits', async (t) => {
  t.timeout(15 * 60_000); // a hang guard: these renders take minutes beside CPU hogs
  // The kill lands as soon as the first page is seen, so the corpus only has to outlast that
  // moment; 600 pages do, at two fifths of the 1,500 this rendered before.
  const source = await makeSyntheticCorpus(KILL_PAGES);
  const dataDir = await makeTempDir();
  const configFile = join(await makeTempDir(), 'config.json');
  await writeFile(configFile, JSON.stringify({ sites: [{ domain: 'big.test', source }] }));
  const spawned = await spawnAppliance({ ENCLAVE_DATA_DIR: dataDir, ENCLAVE_CONFIG: configFile });
  t.teardown(() => {
    spawned.child.kill('SIGKILL');
  });
  const key = /ENCLAVE_ADMIN_KEY=(\S+)/.exec(spawned.stdout())![1];
  const api = (url: string, path: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, { ...init, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' } });
  const queued = await (
    await api(spawned.url, '/v1/static-export/jobs', { method: 'POST', body: JSON.stringify({ domain: 'big.test' }) })
  ).json();
  // A hang guard: beside CPU hogs the server takes minutes to start the job's worker.
  const deadline = Date.now() + 5 * 60_000;
  let seen;
  while (Date.now() < deadline) {
    seen = await (await api(spawned.url, `/v1/static-export/jobs/${queued.jobId}`)).json();
    if (seen.status === 'running' && seen.pageCount > 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const workers = execFileSync('pgrep', ['-P', String(spawned.child.pid)], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map(Number);
  t.true(workers.length > 0 && workers.every(processAlive), 'a worker process is rendering');
  spawned.child.kill('SIGKILL');
  await spawned.exited;
  // The worker exits on its IPC channel's 'disconnect', which it sees between the work it is
  // doing: beside CPU hogs that took longer than the 5 s this waited before. waitUntil's bound
  // is a hang guard only; a worker that never exits still fails below.
  await waitUntil('the orphaned worker to exit', async () => !workers.some(processAlive)).catch(() => {});
  t.false(workers.some(processAlive), 'the orphaned worker exits once its server is gone');
  const crashed = (await readJobs(dataDir)).find((j) => j.id === queued.jobId)!;
  t.is(crashed.status, 'running', `the crash left the job running on disk (last seen ${JSON.stringify(seen)})`);

  const app = await startTestAppliance({ dataDir, overrides: { sites: [{ domain: 'big.test', source }] } });
  t.teardown(() => app.close());
  const recovered = app.features.exports.jobs.find(queued.jobId)!;
  t.is(recovered.interruptions, 1);
  t.not(recovered.status, 'failed');
  const { job } = await waitForJob(
    { ...app, key, api: (path: string) => api(app.url, path) } as never,
    queued.jobId,
    finished,
    10 * 60_000,
  );
  t.is(job.status, 'completed', job.error);
  t.is(job.pageCount, KILL_PAGES);
});

test(`a job cut short by ${MAX_INTERRUPTIONS} restarts is failed with "interrupted by a restart" instead of resumed again`, async (t) => {
  const dataDir = await makeTempDir();
  let app = await startTestAppliance({ dataDir });
  const key = app.key;
  const base = {
    projectId: app.projectId,
    domain: 'sample.enclave.internal',
    progress: 40,
    pageCount: 7,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: null,
    requestedVersion: null,
    version: null,
    paths: null,
    strict: false,
    error: null,
    warnings: [],
    warningCount: 0,
    failedPages: [],
    expectedPages: null,
    bundle: null,
  };
  await app.stop();
  const doc: Omit<ExportsData, 'reexports'> = {
    schemaVersion: 2,
    jobs: [{ ...base, id: 'se_00000000000000aa', status: 'running', interruptions: MAX_INTERRUPTIONS - 1 }],
  };
  await writeFile(join(dataDir, 'exports.json'), JSON.stringify(doc));
  app = await startTestAppliance({ dataDir });
  t.teardown(() => app.close());
  const res = await app.api('/v1/static-export/jobs/se_00000000000000aa', { key });
  const job = await res.json();
  t.like(job, { status: 'failed', error: 'interrupted by a restart', progress: 0, pageCount: 0 });
  t.is((await readJobs(dataDir))[0].status, 'failed', 'the decision is on disk');
});
