import test from 'ava';
import { startTestAppliance } from '../helpers/testAppliance.js';
import { finished, startExport, waitForJob, writeSite } from './exportTestHelpers.js';

const docsJson = (pages: string[]) =>
  JSON.stringify({ name: 'Failing', theme: 'mint', colors: { primary: '#0D9373' }, navigation: { groups: [{ group: 'G', pages }] } });

test('a page that does not render completes the job but is listed in failedPages, with warnings as a list and the expected count', async (t) => {
  const source = await writeSite(t, {
    'docs.json': docsJson(['index', 'bad', 'links']),
    'index.mdx': '---\ntitle: Home\n---\n\nHello.\n',
    'bad.mdx': '---\ntitle: Bad\n---\n\n<Card title="x">\n\nunclosed\n',
    'links.mdx': '---\ntitle: Links\n---\n\nSee [nowhere](/no-such-page) and <Frobnicator>child</Frobnicator>.\n',
  });
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'failing.test', source }] } });
  t.teardown(() => app.close());
  const queued = await startExport(app, { domain: 'failing.test' });
  const { job } = await waitForJob(app, queued.jobId, finished);
  t.is(job.status, 'completed', job.error);
  t.is(job.expectedPages, 3);
  t.is(job.failedPages.length, 1);
  t.is(job.failedPages[0].path, 'bad');
  t.regex(job.failedPages[0].message, /.+/);
  t.true(job.warningCount >= 2, JSON.stringify(job.warnings));
  t.is(job.warnings.length, job.warningCount);
  const broken = job.warnings.find((w) => w.kind === 'brokenLink');
  t.like(broken, { page: 'links' });
  t.regex(broken!.message, /no-such-page/);
  t.truthy(job.warnings.find((w) => w.kind === 'unknownComponent' && /Frobnicator/.test(w.message)));

  // The recent-jobs list (the dashboard's table) carries the same failed pages.
  const recent = (await (await app.api('/v1/static-export/jobs?limit=5')).json()) as {
    jobs: { jobId: string; failedPages: unknown[] }[];
    hasMore: boolean;
  };
  t.deepEqual(
    recent.jobs.map((j) => [j.jobId, j.failedPages.length]),
    [[queued.jobId, 1]],
  );
  t.false(recent.hasMore);
  const bad = await app.api('/v1/static-export/jobs?limit=0&status=done');
  t.is(bad.status, 400);
  t.is(((await bad.json()) as { details: unknown[] }).details.length, 2, 'every bad parameter is listed');
});

test('a source with no docs.json or mint.json fails the job with an error that says so', async (t) => {
  const source = await writeSite(t, { 'index.mdx': '# Home\n' });
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'noconfig.test', source }] } });
  t.teardown(() => app.close());
  const queued = await startExport(app, { domain: 'noconfig.test' });
  const { job } = await waitForJob(app, queued.jobId, finished);
  t.is(job.status, 'failed');
  t.regex(job.error ?? '', /no docs\.json or mint\.json/);
});

test('a docs.json that is not JSON fails the job naming the file', async (t) => {
  const source = await writeSite(t, { 'docs.json': '{"name": "Broken",', 'index.mdx': '# Home\n' });
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'badjson.test', source }] } });
  t.teardown(() => app.close());
  const { job } = await waitForJob(app, (await startExport(app, { domain: 'badjson.test' })).jobId, finished);
  t.is(job.status, 'failed');
  t.regex(job.error ?? '', /docs\.json is not valid JSON/);
});

test('a source with a config but no pages fails the job instead of producing an empty bundle', async (t) => {
  const source = await writeSite(t, { 'docs.json': docsJson([]) });
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'empty.test', source }] } });
  t.teardown(() => app.close());
  const { job } = await waitForJob(app, (await startExport(app, { domain: 'empty.test' })).jobId, finished);
  t.is(job.status, 'failed');
  t.regex(job.error ?? '', /no pages/);
});
