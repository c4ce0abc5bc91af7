import test from 'ava';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ExportJobRepository, EXPORTS_SCHEMA_VERSION } from '../../src/features/exports/ExportJobRepository.js';
import type { ExportJobRecord } from '../../src/features/exports/ExportJobRecord.js';
import type { ExportTaskResult } from '../../src/features/exports/worker/exportWorkerProtocol.js';
import { makeTempDir } from '../helpers/testAppliance.js';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const T1 = new Date('2026-03-01T10:05:00.000Z');

function queuedJob(id: string, domain = 'docs.test'): ExportJobRecord {
  return {
    id,
    projectId: 'pr_1',
    domain,
    status: 'queued',
    progress: 0,
    pageCount: 0,
    createdAt: T0.toISOString(),
    updatedAt: T0.toISOString(),
    startedAt: null,
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
    interruptions: 0,
  };
}

const RESULT: ExportTaskResult = {
  version: 'v7',
  pageCount: 9,
  reusedPages: 4,
  renderedPages: 5,
  expected: 10,
  file: 'docs.test-v7.zip',
  sizeBytes: 1234,
  sha256: 'ab'.repeat(32),
  peakRssBytes: 1,
  renderMs: 2,
  packMs: 3,
  languages: ['ts'],
  failedPages: [{ path: '/broken', message: 'boom' }],
  warnings: [],
  warningCount: 4,
  warningGroups: [],
};

/** Reads exports.json as another process would: what the transitions made durable. */
async function onDisk(dir: string): Promise<{ schemaVersion: number; jobs: ExportJobRecord[]; reexports: Record<string, unknown> }> {
  return JSON.parse(await readFile(join(dir, 'exports.json'), 'utf8'));
}

test('a run is queued → running → completed on disk, and a late progress report does not undo completion', async (t) => {
  const dir = await makeTempDir();
  const jobs = await ExportJobRepository.open(dir);
  await jobs.insertUnlessBusy({ ...queuedJob('se_1'), error: 'left from an earlier run', pageCount: 3 });
  const running = await jobs.markRunning('se_1', T0);
  t.like(running, { status: 'running', startedAt: T0.toISOString(), progress: 0, pageCount: 0, error: null });
  await jobs.recordWorker('se_1', 4242);
  await jobs.recordProgress('se_1', { progress: 50, pageCount: 5, version: 'v7' }, T0);
  t.like((await onDisk(dir)).jobs[0], { status: 'running', progress: 50, pageCount: 5, version: 'v7', workerPid: 4242 });

  await jobs.complete('se_1', RESULT, T1);
  await jobs.recordProgress('se_1', { progress: 60, pageCount: 6 }, T1);
  const done = (await onDisk(dir)).jobs[0];
  t.like(done, {
    status: 'completed',
    progress: 100,
    pageCount: 10, // rendered pages plus the failed page's error page
    expectedPages: 10,
    version: 'v7',
    warningCount: 4,
    finishedAt: T1.toISOString(),
    bundle: { file: RESULT.file, sizeBytes: 1234, sha256: RESULT.sha256 },
  });
  t.deepEqual(done.failedPages, RESULT.failedPages);
  t.is(await jobs.markRunning('se_missing', T1), undefined, 'no such job: nothing happens');
});

test('a shutdown requeues a running job; a failure records its message', async (t) => {
  const dir = await makeTempDir();
  const jobs = await ExportJobRepository.open(dir);
  await jobs.insertUnlessBusy(queuedJob('se_a', 'a.test'));
  await jobs.insertUnlessBusy(queuedJob('se_b', 'b.test'));
  await jobs.markRunning('se_a', T0);
  await jobs.recordProgress('se_a', { progress: 40, pageCount: 4 }, T0);
  await jobs.requeue('se_a', T1);
  await jobs.markRunning('se_b', T0);
  await jobs.fail('se_b', 'docs source directory not found', T1);
  const [a, b] = (await onDisk(dir)).jobs;
  t.like(a, { status: 'queued', progress: 0, pageCount: 0, startedAt: null, updatedAt: T1.toISOString() });
  t.like(b, { status: 'failed', error: 'docs source directory not found', finishedAt: T1.toISOString() });
  t.is(jobs.nextQueued(new Set())?.id, 'se_a');
});

test('recovery after a crash resumes running jobs and fails one interrupted too often, in one write', async (t) => {
  const dir = await makeTempDir();
  const jobs = await ExportJobRepository.open(dir);
  await jobs.insertUnlessBusy(queuedJob('se_again', 'a.test'));
  await jobs.insertUnlessBusy({ ...queuedJob('se_often', 'b.test'), interruptions: 2 });
  await jobs.insertUnlessBusy(queuedJob('se_waiting', 'c.test'));
  await jobs.markRunning('se_again', T0);
  await jobs.markRunning('se_often', T0);
  await jobs.recordWorker('se_again', 1);
  const recovered = await jobs.recoverInterrupted(T1, 3, 'interrupted by a restart');
  t.deepEqual(recovered, { resumed: ['se_again'], failed: ['se_often'] });
  const [again, often, waiting] = (await onDisk(dir)).jobs;
  t.like(again, { status: 'queued', interruptions: 1, workerPid: null, startedAt: null });
  t.like(often, { status: 'failed', interruptions: 3, error: 'interrupted by a restart', finishedAt: T1.toISOString() });
  t.like(waiting, { status: 'queued', interruptions: 0 });
});

test('exports.json version 2 takes over the re-export memory deployments.json kept, once', async (t) => {
  const dir = await makeTempDir();
  const memory = { 'docs.test': { sourceHash: 'h1', at: T0.toISOString(), jobId: 'se_1', version: 'v1' } };
  await writeFile(join(dir, 'exports.json'), JSON.stringify({ schemaVersion: 2, jobs: [] }));
  await writeFile(join(dir, 'deployments.json'), JSON.stringify({ schemaVersion: 1, reexports: memory }));
  const jobs = await ExportJobRepository.open(dir);
  t.deepEqual(jobs.lastReexport('docs.test'), memory['docs.test']);
  t.like(await onDisk(dir), { schemaVersion: EXPORTS_SCHEMA_VERSION, reexports: memory });

  // From now on exports.json is the memory: a later change to the old file is not read again.
  await jobs.recordReexport('docs.test', { ...memory['docs.test'], sourceHash: 'h2' });
  await writeFile(join(dir, 'deployments.json'), JSON.stringify({ schemaVersion: 1, reexports: {} }));
  const reopened = await ExportJobRepository.open(dir);
  t.is(reopened.lastReexport('docs.test')?.sourceHash, 'h2');
});

test('without a readable deployments.json the upgrade starts with no re-export memory', async (t) => {
  const dir = await makeTempDir();
  await writeFile(join(dir, 'exports.json'), JSON.stringify({ schemaVersion: 2, jobs: [] }));
  await writeFile(join(dir, 'deployments.json'), '{ not json');
  const jobs = await ExportJobRepository.open(dir);
  t.is(jobs.lastReexport('docs.test'), undefined);
  t.deepEqual((await onDisk(dir)).reexports, {});
});
