import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import AdmZip from 'adm-zip';
import test from 'ava';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import { download, type ExportJobBody, finished, startExport, waitForJob } from '../export/exportTestHelpers.js';
import { READER_ACCESS_SITE } from './readerAccessSite.js';

test('an export job for the public audience holds only public pages; the default export is complete and counts restrictions', async (t) => {
  const source = await makeTempDir('enclave-audience-site-');
  t.teardown(() => rm(source, { recursive: true, force: true }));
  for (const [rel, text] of Object.entries(READER_ACCESS_SITE)) {
    await mkdir(dirname(join(source, rel)), { recursive: true });
    await writeFile(join(source, rel), text);
  }
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'docs.example.com', source }] } });
  t.teardown(() => app.close());
  const bundleOf = async (body: Record<string, unknown>) => {
    const started = await startExport(app, { domain: 'docs.example.com', ...body });
    const { job } = await waitForJob(app, started.jobId, finished);
    t.is(job.status, 'completed', (job as ExportJobBody & { error?: string }).error);
    const link = await (await app.api(`/v1/static-export/jobs/${job.jobId}/bundle`, { method: 'POST' })).json();
    return { job, zip: new AdmZip(await download(link.bundleUrl)) };
  };
  const mirror = await bundleOf({ audience: 'public' });
  t.deepEqual((mirror.job as unknown as { audience: unknown }).audience, 'public');
  t.truthy(mirror.zip.getEntry('open/hello.html'));
  t.is(mirror.zip.getEntry('team/notes.html'), null);
  t.false(mirror.zip.readAsText('llms-full.txt').includes('quokka'));
  const full = await bundleOf({});
  t.truthy(full.zip.getEntry('team/notes.html'));
  const report = JSON.parse(full.zip.readAsText('_enclave/report.json')) as { access?: { restrictedPages: number } };
  t.is(report.access?.restrictedPages, 3);
  const bad = await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'docs.example.com', audience: 'everyone' } });
  t.is(bad.status, 400);
});
