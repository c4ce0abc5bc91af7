import test from 'ava';
import { SAMPLE_DOMAIN } from '../../src/app/bootstrap/sampleDocs.js';
import { startTestAppliance } from '../helpers/testAppliance.js';
import { checkBundle, download, exportToBundle, sha256 } from './exportTestHelpers.js';
import { sharedPath } from '../helpers/sharedDir.js';

interface Report {
  pages: { expected: number; rendered: number; failed: { path: string; reason: string }[] };
  brokenLinks: unknown[];
  missingImages: unknown[];
  unknownComponents: Record<string, number>;
  externalUrls: unknown[];
  warnings: unknown[];
}

/** Exports `domain` through the HTTP API, downloads the zip and checks it; returns the report. */
async function exportAndCheck(t: import('ava').ExecutionContext, app: Awaited<ReturnType<typeof startTestAppliance>>, domain: string) {
  const started = Date.now();
  const { job, link } = await exportToBundle(app, domain);
  const seconds = (Date.now() - started) / 1000;
  const zip = await download(link.bundleUrl);
  t.is(zip.length, link.sizeBytes, domain);
  t.is(sha256(zip), link.sha256, domain);
  const { manifest, problems, zip: opened } = checkBundle(zip);
  t.deepEqual(problems, [], `${domain}: manifest checks out`);
  t.is(manifest.domain, domain);
  t.is(manifest.version, job.version!);
  t.is(manifest.jobId, job.jobId);
  t.truthy(opened.getEntry('index.html'), `${domain}: has index.html`);
  t.truthy(opened.getEntry('404.html'));
  t.truthy(opened.getEntry('sitemap.xml'));
  // Already-compressed formats are stored; text is deflated.
  for (const entry of opened.getEntries()) {
    if (/\.(png|jpe?g|gif|webp|woff2?)$/i.test(entry.entryName)) t.is(entry.header.method, 0, `${entry.entryName} stored`);
    if (entry.entryName.endsWith('.html') && entry.header.size > 1000) t.is(entry.header.method, 8, `${entry.entryName} deflated`);
  }
  const report = JSON.parse(opened.getEntry('_enclave/report.json')!.getData().toString('utf8')) as Report;
  t.is(job.pageCount, report.pages.rendered + report.pages.failed.length, `${domain}: pageCount counts every page in the bundle`);
  t.log(
    `${domain}: ${report.pages.rendered}/${report.pages.expected} pages rendered, ${report.pages.failed.length} failed, ${job.warningCount} warnings, ` +
      `${Object.values(report.unknownComponents).reduce((a, b) => a + b, 0)} unknown component uses, ${report.brokenLinks.length} broken links, ` +
      `${report.missingImages.length} missing images; zip ${(link.sizeBytes / 1e6).toFixed(1)} MB; ${seconds.toFixed(1)} s`,
  );
  return { job, report, manifest };
}

test('the sample site (registered at first start) and the starter corpus export through the HTTP API; zips and manifests check out', async (t) => {
  t.timeout(5 * 60_000);
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'starter.test', source: sharedPath('corpora', 'starter') }] } });
  t.teardown(() => app.close());
  t.truthy(app.control.sites.find(SAMPLE_DOMAIN), 'the sample site is registered on first start');

  const sample = await exportAndCheck(t, app, SAMPLE_DOMAIN);
  t.true(sample.report.pages.rendered >= 12);
  t.is(sample.report.pages.failed.length, 0);
  const starter = await exportAndCheck(t, app, 'starter.test');
  t.is(starter.report.pages.expected, starter.report.pages.rendered, 'every starter page renders');
  t.true(starter.manifest.pages.some((p) => p.file === 'quickstart.html'));
});

test('the mcp corpus exports without the job failing', async (t) => {
  t.timeout(10 * 60_000);
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'mcp.test', source: sharedPath('corpora', 'mcp') }] } });
  t.teardown(() => app.close());
  const { report } = await exportAndCheck(t, app, 'mcp.test');
  t.true(report.pages.expected >= 300);
});

test('the unstructured corpus (legacy mint.json) exports without the job failing', async (t) => {
  t.timeout(10 * 60_000);
  const app = await startTestAppliance({
    overrides: { sites: [{ domain: 'unstructured.test', source: sharedPath('corpora', 'unstructured') }] },
  });
  t.teardown(() => app.close());
  const { report } = await exportAndCheck(t, app, 'unstructured.test');
  t.true(report.pages.expected >= 250);
});
