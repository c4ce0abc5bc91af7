import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import test from 'ava';
import { runExport } from '../../src/cli/export.js';
import { captureCliIo } from '../helpers/captureCliIo.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import { download, finished, startExport, waitForJob, type ExportJobBody } from './exportTestHelpers.js';

const REMOTE_IMAGE = 'https://cdn.example.net/diagram.png';

test('export jobs remove remote loads by default; keepRemoteAssets: true (job body or CLI flag) keeps them; a non-boolean is a 400', async (t) => {
  const source = await makeTempDir('enclave-remote-site-');
  t.teardown(() => rm(source, { recursive: true, force: true }));
  await writeFile(
    join(source, 'docs.json'),
    JSON.stringify({ name: 'Remote', colors: { primary: '#0D9373' }, navigation: { pages: ['index'] } }),
  );
  await writeFile(join(source, 'index.mdx'), `---\ntitle: Home\n---\n\n![Diagram](${REMOTE_IMAGE})\n`);
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'remote.test', source }] } });
  t.teardown(() => app.close());

  const homeOf = async (body: Record<string, unknown>) => {
    const started = await startExport(app, { domain: 'remote.test', ...body });
    const { job } = await waitForJob(app, started.jobId, finished);
    t.is(job.status, 'completed', (job as ExportJobBody & { error?: string }).error);
    const link = await (await app.api(`/v1/static-export/jobs/${job.jobId}/bundle`, { method: 'POST' })).json();
    const zip = new AdmZip(await download(link.bundleUrl));
    return {
      html: zip.readAsText('index.html'),
      report: JSON.parse(zip.readAsText('_enclave/report.json')) as { removedRemote: unknown[] },
    };
  };
  const offline = await homeOf({});
  t.false(offline.html.includes(`src="${REMOTE_IMAGE}"`));
  t.true(offline.html.includes('class="enclave-remote"'));
  t.is(offline.report.removedRemote.length, 1);
  const kept = await homeOf({ keepRemoteAssets: true });
  t.true(kept.html.includes(`src="${REMOTE_IMAGE}"`));
  t.deepEqual(kept.report.removedRemote, []);
  const bad = await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'remote.test', keepRemoteAssets: 'yes' } });
  t.is(bad.status, 400);

  // The CLI flag asks for the same.
  const cli = captureCliIo({ ENCLAVE_URL: app.url, ENCLAVE_ADMIN_KEY: app.key });
  t.is(await runExport(['start', '--domain', 'remote.test', '--keep-remote-assets', '--wait'], cli.io), 0, cli.err());
  const { jobId } = JSON.parse(cli.out()) as { jobId: string };
  const link = await (await app.api(`/v1/static-export/jobs/${jobId}/bundle`, { method: 'POST' })).json();
  t.true(new AdmZip(await download(link.bundleUrl)).readAsText('index.html').includes(`src="${REMOTE_IMAGE}"`));
});
