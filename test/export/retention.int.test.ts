import test from 'ava';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ManualClock } from '../../src/platform/Clock.js';
import { exportPaths } from '../../src/features/exports/ExportPaths.js';
import { startTestAppliance } from '../helpers/testAppliance.js';
import { finished, makeSyntheticCorpus, makeTinySite, startExport, waitForJob } from './exportTestHelpers.js';

const DAY = 24 * 60 * 60 * 1000;

test('retention removes finished jobs (record, zip, files) past retentionDays and orphaned job dirs; never queued or running jobs', async (t) => {
  t.timeout(5 * 60_000);
  const t0 = Date.parse('2026-02-01T00:00:00.000Z');
  const clock = new ManualClock(t0);
  const tiny = await makeTinySite();
  // Only has to keep its job running through the two cleanups (milliseconds of work once it has
  // rendered a page): 600 pages do, at two fifths of the 1,500 this rendered before.
  const big = await makeSyntheticCorpus(600);
  const app = await startTestAppliance({
    clock,
    overrides: {
      sites: [
        { domain: 'tiny.test', source: tiny },
        { domain: 'big.test', source: big },
        { domain: 'gone.test', source: '/nonexistent/enclave-docs' },
      ],
      export: { retentionDays: 30 },
    },
  });
  t.teardown(() => app.close());
  const bundleDir = (id: string) => exportPaths(app.dataDir, id).bundleDir;

  const a = (await waitForJob(app, (await startExport(app, { domain: 'tiny.test' })).jobId, finished)).job;
  clock.advance(10 * DAY);
  const b = (await waitForJob(app, (await startExport(app, { domain: 'tiny.test' })).jobId, finished)).job;
  const c = (await waitForJob(app, (await startExport(app, { domain: 'gone.test' })).jobId, finished)).job;
  t.deepEqual([a.status, b.status, c.status], ['completed', 'completed', 'failed']);
  t.true(existsSync(bundleDir(a.jobId)) && existsSync(bundleDir(b.jobId)));

  clock.advance(25 * DAY);
  const d = await startExport(app, { domain: 'big.test' });
  const e = await startExport(app, { domain: 'tiny.test' });
  await waitForJob(app, d.jobId, (j) => j.status === 'running' && j.pageCount > 0);
  const orphan = join(app.dataDir, 'bundles', 'se_ffffffffffffffff');
  await mkdir(orphan, { recursive: true });
  await writeFile(join(orphan, 'left-over.zip'), 'x');
  const foreign = join(app.dataDir, 'bundles', 'kept-by-someone-else');
  await mkdir(foreign, { recursive: true });

  // Day 35: only A (finished on day 0) is past 30 days.
  const first = await app.features.exports.cleanup(clock.now());
  t.deepEqual(first.removedJobs, [a.jobId]);
  t.deepEqual(first.removedOrphans, [orphan]);
  t.is((await app.api(`/v1/static-export/jobs/${a.jobId}`)).status, 404);
  t.false(existsSync(bundleDir(a.jobId)));
  t.true(existsSync(bundleDir(b.jobId)));
  t.true(existsSync(foreign), 'directories that are not job directories are left alone');
  t.is((await app.api(`/v1/static-export/jobs/${b.jobId}/bundle`, { method: 'POST' })).status, 200);

  // Far in the future: every finished job goes, the running and queued ones stay.
  const second = await app.features.exports.cleanup(new Date(t0 + 1000 * DAY));
  t.deepEqual(second.removedJobs.sort(), [b.jobId, c.jobId].sort());
  t.false(existsSync(bundleDir(b.jobId)));
  for (const id of [d.jobId, e.jobId]) t.is((await app.api(`/v1/static-export/jobs/${id}`)).status, 200);
  t.like(await (await app.api(`/v1/static-export/jobs/${d.jobId}`)).json(), { status: 'running' });
  t.like(await (await app.api(`/v1/static-export/jobs/${e.jobId}`)).json(), { status: 'queued' });
  // The running job was left alone: it still finishes, with its bundle in place.
  const done = (await waitForJob(app, d.jobId, finished)).job;
  t.is(done.status, 'completed');
  t.true(existsSync(bundleDir(d.jobId)));
  t.is((await app.api(`/v1/static-export/jobs/${d.jobId}/bundle`, { method: 'POST' })).status, 200);
});
