import { access, appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { runExport } from '../../src/cli/export.js';
import { captureCliIo } from '../helpers/captureCliIo.js';
import { applianceFetch, makeTempDir, startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';
import { finished, makeTinySite, startExport, waitForJob, type ExportJobBody } from '../export/exportTestHelpers.js';

type CountedJob = ExportJobBody & { reusedPages?: number; renderedPages?: number };

/** Runs an export of tiny.test through the API and returns the finished job. */
async function exportOnce(app: TestAppliance, body: Record<string, unknown> = {}): Promise<CountedJob> {
  const started = await startExport(app, { domain: 'tiny.test', ...body });
  const { job } = await waitForJob(app, started.jobId, finished);
  if (job.status !== 'completed') throw new Error(`export failed: ${job.error}`);
  return job as CountedJob;
}

test('export jobs reuse unchanged pages, report reusedPages/renderedPages, keep the cache across a restart; full: true, --full and removing the folder render all', async (t) => {
  const source = await makeTinySite(5);
  const dataDir = await makeTempDir('enclave-incremental-data-');
  t.teardown(() => Promise.all([rm(source, { recursive: true, force: true }), rm(dataDir, { recursive: true, force: true })]));
  const overrides = { sites: [{ domain: 'tiny.test', source }] };
  let app = await startTestAppliance({ overrides, dataDir });
  t.teardown(() => app.close());

  const first = await exportOnce(app);
  t.like(first, { reusedPages: 0, renderedPages: 5, pageCount: 5 });
  await access(join(dataDir, 'cache', 'tiny.test', 'meta.json'));

  await appendFile(join(source, 'page-2.mdx'), '\nA new sentence.\n');
  t.like(await exportOnce(app), { reusedPages: 4, renderedPages: 1, pageCount: 5 });
  t.like(await exportOnce(app, { full: true }), { reusedPages: 0, renderedPages: 5 });
  const bad = await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'tiny.test', full: 'yes' } });
  t.is(bad.status, 400);

  // A restart keeps the cache: nothing changed, nothing rendered.
  const { key } = app;
  await app.close();
  const restarted = await startTestAppliance({ overrides, dataDir });
  app = { ...restarted, key, api: applianceFetch(restarted.url, key) };
  t.like(await exportOnce(app), { reusedPages: 5, renderedPages: 0, pageCount: 5 });

  // The CLI prints the counts, and --full asks for a full export.
  const cli = captureCliIo({ ENCLAVE_URL: app.url, ENCLAVE_ADMIN_KEY: app.key });
  t.is(await runExport(['start', '--domain', 'tiny.test', '--full', '--wait'], cli.io), 0, cli.err());
  t.regex(cli.err(), /0 page\(s\) reused from the last export, 5 rendered/);
  t.like(JSON.parse(cli.out()), { reusedPages: 0, renderedPages: 5 });

  // Removing the folder forces a full export too.
  await rm(join(dataDir, 'cache', 'tiny.test'), { recursive: true });
  t.like(await exportOnce(app), { reusedPages: 0, renderedPages: 5 });
});
