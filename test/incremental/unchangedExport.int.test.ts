import { readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { makeTempDir, startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';
import { finished, makeTinySite, sha256, startExport, waitForJob, type ExportJobBody } from '../export/exportTestHelpers.js';

type Job = ExportJobBody & { reusedPages?: number; renderedPages?: number };

/** Exports tiny.test and returns the finished job, its bundle's SHA-256 as the API says it, and that zip's bytes. */
async function exportOnce(app: TestAppliance, dataDir: string): Promise<{ job: Job; sha: string; zip: Buffer }> {
  const started = await startExport(app, { domain: 'tiny.test' });
  const { job } = await waitForJob(app, started.jobId, finished);
  if (job.status !== 'completed') throw new Error(`export failed: ${job.error}`);
  const res = await app.api(`/v1/static-export/jobs/${job.jobId}/bundle`, { method: 'POST' });
  const { sha256: sha } = (await res.json()) as { sha256: string };
  const dir = join(dataDir, 'bundles', job.jobId);
  const [file] = await readdir(dir);
  return { job: job as Job, sha, zip: await readFile(join(dir, file)) };
}

test('nothing changed: the job is the last bundle (same bytes, every page reused); any real change, a damaged record or another day exports', async (t) => {
  t.timeout(240_000);
  const source = await makeTinySite(5);
  const dataDir = await makeTempDir('enclave-unchanged-data-');
  t.teardown(() => Promise.all([rm(source, { recursive: true, force: true }), rm(dataDir, { recursive: true, force: true })]));
  const clock = new ManualClock('2026-11-27T10:00:00.000Z');
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'tiny.test', source }] }, dataDir, clock });
  t.teardown(() => app.close());

  const first = await exportOnce(app, dataDir);
  t.like(first.job, { renderedPages: 5, reusedPages: 0 });
  const second = await exportOnce(app, dataDir);
  t.like(second.job, { renderedPages: 0, reusedPages: 5, pageCount: 5, version: first.job.version });
  t.is(second.sha, first.sha, 'the same bundle');
  t.is(sha256(second.zip), second.sha, 'the job names the real file');

  // Touched, not changed: the stat differs, the content does not.
  const page = join(source, 'page-2.mdx');
  await utimes(page, new Date('2026-11-26T00:00:00Z'), new Date('2026-11-26T00:00:00Z'));
  const touched = await exportOnce(app, dataDir);
  t.is(touched.sha, first.sha, 'a touched file changes nothing');

  // Changed with the same size and mtime put back: only its ctime tells; it must be exported.
  const before = await stat(page);
  const text = await readFile(page, 'utf8');
  await writeFile(page, text.replace('Hello from page 2', 'Howdy from page 2'));
  await utimes(page, before.atime, before.mtime);
  t.is((await stat(page)).size, before.size);
  const changed = await exportOnce(app, dataDir);
  t.like(changed.job, { renderedPages: 1, reusedPages: 4 });
  t.not(changed.sha, first.sha);
  t.true(changed.zip.includes(Buffer.from('page-2.md')), 'a bundle of its own');
  t.is((await exportOnce(app, dataDir)).sha, changed.sha, 'then nothing changed again');

  // A damaged record: the export runs (its own manifest, so another SHA-256), reusing the page bodies.
  await writeFile(join(dataDir, 'cache', 'tiny.test', 'last-export.json'), 'not a record');
  const damaged = await exportOnce(app, dataDir);
  t.like(damaged.job, { renderedPages: 0, reusedPages: 5 });
  t.not(damaged.sha, changed.sha);

  // The previous bundle altered on disk (its stat moved): not handed out again.
  const previousDir = join(dataDir, 'bundles', damaged.job.jobId);
  const [previousFile] = await readdir(previousDir);
  await utimes(join(previousDir, previousFile), new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
  const altered = await exportOnce(app, dataDir);
  t.not(altered.sha, damaged.sha);

  // Another day gives another default version: a real export.
  clock.set('2026-11-28T10:00:00.000Z');
  const nextDay = await exportOnce(app, dataDir);
  t.not(nextDay.job.version, altered.job.version);
  t.not(nextDay.sha, altered.sha);
});
