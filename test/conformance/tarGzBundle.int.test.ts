import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { finished, makeTinySite, startExport, waitForJob } from '../export/exportTestHelpers.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { deployAndWait } from '../deploy/helpers/loggedAppliance.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

test('a bundle as tar.gz: packed once, signed like the zip, downloaded, deployed by API and by staticExport.bundleUrl', async (t) => {
  const source = await makeTinySite(3);
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'tar.test', source }] } });
  t.teardown(() => app.close());
  const started = await startExport(app, { domain: 'tar.test' });
  const { job } = await waitForJob(app, started.jobId, finished);
  t.is(job.status, 'completed');
  const bundlePath = `/v1/static-export/jobs/${job.jobId}/bundle`;

  const link = await (await app.api(bundlePath, { method: 'POST', json: { format: 'tar.gz' } })).json();
  t.regex(link.bundleUrl, /\.tar\.gz\?/);
  const download = await fetch(link.bundleUrl);
  t.is(download.status, 200);
  t.is(download.headers.get('content-type'), 'application/gzip');
  t.regex(download.headers.get('content-disposition') ?? '', /\.tar\.gz"$/);
  const bytes = Buffer.from(await download.arrayBuffer());
  t.deepEqual([...bytes.subarray(0, 2)], [0x1f, 0x8b], 'gzip');
  t.is(bytes.length, link.sizeBytes);
  t.is(sha256(bytes), link.sha256);

  const again = await (await app.api(bundlePath, { method: 'POST', json: { format: 'tar.gz' } })).json();
  t.is(again.sha256, link.sha256, 'packed once and kept');
  const zip = await (await app.api(bundlePath, { method: 'POST' })).json();
  t.regex(zip.bundleUrl, /\.zip\?/, 'zip stays the default');
  t.not(zip.sha256, link.sha256);
  const bad = await app.api(bundlePath, { method: 'POST', json: { format: 'rar' } });
  t.is(bad.status, 400);

  // Deployments take the tar.gz link like a zip link.
  const deployed = await deployAndWait(app, { bundleUrl: link.bundleUrl, domain: 'tar.test' });
  t.is(deployed.status, 'active', JSON.stringify(deployed));

  // And so does another appliance's staticExport.bundleUrl, pointing at the file as carried in.
  const dir = await makeTempDir('enclave-targz-');
  const file = join(dir, 'bundle.tar.gz');
  await writeFile(file, bytes);
  const reader = await startTestAppliance({ overrides: { staticExport: { enabled: true, bundleUrl: file } } });
  t.teardown(() => reader.close());
  await waitUntil('the tar.gz is live', async () => (await fetch(`${reader.url}/page-1`)).status === 200);
  t.regex(await (await fetch(`${reader.url}/page-1`)).text(), /Hello from page 1/);
});
