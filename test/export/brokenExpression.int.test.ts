import test from 'ava';
import { runEnclave } from '../helpers/runEnclave.js';
import { startTestAppliance } from '../helpers/testAppliance.js';
import { renderFiles } from '../render/renderFixture.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { finished, startExport, waitForJob, writeSite } from './exportTestHelpers.js';

// Issue 33 item 4: an `{expression}` that does not parse used to vanish with a warning while the
// export exited 0 (even with --strict). Its page is now a failed page unless the admin ships warnings.
const SITE = {
  'docs.json': JSON.stringify({ name: 'B', navigation: { pages: ['index', 'broken'] } }),
  'index.mdx': '# Home\n\nFine.\n',
  'broken.mdx': '# Broken\n\nBefore {a b} after.\n\nThe rest of the page.\n',
};

test('a page with an expression that does not parse fails, and ships with a warning only when asked', async (t) => {
  const strictDefault = await renderFiles(t, SITE);
  t.deepEqual(
    strictDefault.result.report.pages.failed.map((f) => f.path),
    ['broken'],
  );
  t.regex(strictDefault.result.report.pages.failed[0].reason, /invalid expression.*would be dropped/);
  const page = await readFile(join(strictDefault.out, 'broken.html'), 'utf8');
  t.regex(page, /could not be rendered/);

  const shipped = await renderFiles(t, SITE, { shipWarnings: true });
  t.deepEqual(shipped.result.report.pages.failed, []);
  t.true(shipped.result.report.warnings.some((w) => w.page === 'broken' && /invalid expression/.test(w.message)));
  const kept = await readFile(join(shipped.out, 'broken.html'), 'utf8');
  t.regex(kept, /Before/);
  t.regex(kept, /The rest of the page\./);
});

test('the CLI exit code agrees: 1 with the page listed (with and without --strict), deploy refused, 0 with --ship-warnings', async (t) => {
  const source = await writeSite(t, SITE);
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'broken.test', source }] } });
  t.teardown(() => app.close());
  const env = { ENCLAVE_URL: app.url, ENCLAVE_ADMIN_KEY: app.key };

  const plain = await runEnclave(['export', 'start', '--domain', 'broken.test', '--wait'], env);
  t.is(plain.code, 1, plain.stderr);
  t.regex(plain.stderr, /^ {2}\/broken: invalid expression/m);
  const job = JSON.parse(plain.stdout) as { jobId: string; status: string; failedPages: { path: string }[] };
  t.is(job.status, 'completed');
  t.deepEqual(
    job.failedPages.map((f) => f.path),
    ['broken'],
  );
  const link = (await (await app.api(`/v1/static-export/jobs/${job.jobId}/bundle`, { method: 'POST' })).json()) as { bundleUrl: string };
  const deploy = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: link.bundleUrl, domain: 'broken.test' } });
  t.is(deploy.status, 409, 'a bundle with the failed page is refused unless forced');

  const strict = await runEnclave(['export', 'start', '--domain', 'broken.test', '--strict', '--wait'], env);
  t.is(strict.code, 1, strict.stderr);
  t.is((JSON.parse(strict.stdout) as { status: string }).status, 'failed');

  const shipped = await runEnclave(['export', 'start', '--domain', 'broken.test', '--ship-warnings', '--wait'], env);
  t.is(shipped.code, 0, shipped.stderr);
  const shippedJob = JSON.parse(shipped.stdout) as { status: string; failedPages: unknown[]; warningCount: number };
  t.is(shippedJob.status, 'completed');
  t.deepEqual(shippedJob.failedPages, []);
  t.true(shippedJob.warningCount >= 1);
});

test('export.shipWarnings makes shipping the default (scheduled re-exports can take no per-job flag); a job can still ask to fail', async (t) => {
  const source = await writeSite(t, SITE);
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'broken.test', source }], export: { shipWarnings: true } } });
  t.teardown(() => app.close());
  const shipped = await startExport(app, { domain: 'broken.test' });
  const { job } = await waitForJob(app, shipped.jobId, finished);
  t.is(job.status, 'completed');
  t.deepEqual(job.failedPages, []);
  const refused = await startExport(app, { domain: 'broken.test', shipWarnings: false });
  const failed = await waitForJob(app, refused.jobId, finished);
  t.deepEqual(
    failed.job.failedPages.map((f) => f.path),
    ['broken'],
  );
});
