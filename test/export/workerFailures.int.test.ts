import test from 'ava';
import { rm } from 'node:fs/promises';
import { startTestAppliance } from '../helpers/testAppliance.js';
import { finished, makeSyntheticCorpus, makeTinySite, startExport, waitForJob } from './exportTestHelpers.js';

test('the source directory vanishing mid-run fails the job with a clear error', async (t) => {
  t.timeout(5 * 60_000);
  // The vanished folder is noticed once every page is rendered (renderSite's last check), so the
  // corpus only has to outlast the moment between seeing 20 pages done and removing it: 600 pages
  // do, and cost a fifth of the 3,000 this rendered before (beside CPU hogs, over 5 minutes).
  const source = await makeSyntheticCorpus(600);
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'big.test', source }] } });
  t.teardown(() => app.close());
  const started = await startExport(app, { domain: 'big.test' });
  await waitForJob(app, started.jobId, (j) => j.status === 'running' && j.pageCount >= 20);
  await rm(source, { recursive: true, force: true });
  const { job } = await waitForJob(app, started.jobId, finished);
  t.is(job.status, 'failed');
  t.regex(job.error!, /vanished|does not exist|not found/i);
  t.false(job.error!.includes('\n'), 'one line, no stack');
  t.is((await app.api(`/v1/static-export/jobs/${job.jobId}/bundle`, { method: 'POST' })).status, 409);
});

test('a worker that dies (killed) fails its job; the server keeps answering and takes the next job', async (t) => {
  t.timeout(5 * 60_000);
  const source = await makeSyntheticCorpus(2000);
  const tiny = await makeTinySite();
  const app = await startTestAppliance({
    overrides: {
      sites: [
        { domain: 'big.test', source },
        { domain: 'tiny.test', source: tiny },
      ],
    },
  });
  t.teardown(() => app.close());
  const big = await startExport(app, { domain: 'big.test' });
  const next = await startExport(app, { domain: 'tiny.test' });
  await waitForJob(app, big.jobId, (j) => j.status === 'running' && j.pageCount > 0);
  const pid = app.features.exports.workerPids().get(big.jobId)!;
  process.kill(pid, 'SIGKILL');
  const { job } = await waitForJob(app, big.jobId, finished);
  t.is(job.status, 'failed');
  t.is(job.error, 'export worker stopped unexpectedly (signal SIGKILL)');
  t.is((await app.api('/_enclave/health')).status, 200);
  const { job: after } = await waitForJob(app, next.jobId, finished);
  t.is(after.status, 'completed', 'the queue moves on');
});

test('a job running past config.export.jobTimeoutSeconds is killed and failed', async (t) => {
  const source = await makeTinySite();
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'tiny.test', source }], export: { jobTimeoutSeconds: 1 } } });
  t.teardown(() => app.close());
  const started = await startExport(app, { domain: 'tiny.test' });
  await waitForJob(app, started.jobId, (j) => j.status === 'running');
  const pid = await new Promise<number>((resolve) => {
    const poll = () => {
      const p = app.features.exports.workerPids().get(started.jobId);
      if (p) resolve(p);
      else setTimeout(poll, 20);
    };
    poll();
  });
  const { job } = await waitForJob(app, started.jobId, finished);
  t.is(job.status, 'failed');
  t.is(job.error, 'export timed out after 1 s');
  await new Promise((r) => setTimeout(r, 200));
  t.throws(() => process.kill(pid, 0), undefined, 'the worker was killed');
});
