import test from 'ava';
import { systemClock } from '../../src/platform/Clock.js';
import { createAdminKey } from '../../src/features/control/createAdminKey.js';
import { createProject } from '../../src/features/control/createProject.js';
import { startTestAppliance } from '../helpers/testAppliance.js';
import { finished, makeTinySite, startExport, waitForJob, type ExportJobBody } from './exportTestHelpers.js';

const JOB_FIELDS = [
  'jobId',
  'domain',
  'status',
  'progress',
  'pageCount',
  'createdAt',
  'updatedAt',
  'version',
  'expectedPages',
  'failedPages',
  'warnings',
  'warningCount',
  'warningGroups',
].sort();
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

test('a job goes 202 queued → completed with exactly the spec fields, and its bundle link answers', async (t) => {
  const source = await makeTinySite(3);
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'tiny.test', source }] } });
  t.teardown(() => app.close());

  const res = await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'tiny.test', version: 'v1.2.3' } });
  t.is(res.status, 202);
  const queued = (await res.json()) as ExportJobBody;
  t.regex(queued.jobId, /^se_[0-9a-f]{16}$/);
  t.deepEqual(Object.keys(queued).sort(), JOB_FIELDS);
  t.like(queued, {
    domain: 'tiny.test',
    status: 'queued',
    progress: 0,
    pageCount: 0,
    version: 'v1.2.3',
    warnings: [],
    warningCount: 0,
    warningGroups: [],
    failedPages: [],
    expectedPages: null,
  });
  t.regex(queued.createdAt, ISO);

  // Bundling before completion is a conflict.
  const early = await app.api(`/v1/static-export/jobs/${queued.jobId}/bundle`, { method: 'POST' });
  t.is(early.status, 409);
  t.truthy((await early.json()).error);

  const { job, seen } = await waitForJob(app, queued.jobId, finished);
  t.is(job.status, 'completed', job.error);
  // reusedPages and renderedPages are added once completed (issue 32).
  t.deepEqual(Object.keys(job).sort(), [...JOB_FIELDS, 'renderedPages', 'reusedPages'].sort(), 'no error field unless failed');
  t.is(job.progress, 100);
  t.is(job.pageCount, 3);
  t.is(job.version, 'v1.2.3');
  t.regex(job.updatedAt, ISO);
  t.true(
    seen.every((s, i) => i === 0 || s.progress >= seen[i - 1].progress),
    'progress never goes back',
  );

  const bundle = await app.api(`/v1/static-export/jobs/${job.jobId}/bundle`, { method: 'POST' });
  t.is(bundle.status, 200);
  const link = await bundle.json();
  t.deepEqual(Object.keys(link).sort(), ['bundleUrl', 'expiresAt', 'jobId', 'sha256', 'sizeBytes', 'version']);
  t.is(link.jobId, job.jobId);
  t.is(link.version, 'v1.2.3');
  t.regex(link.sha256, /^[0-9a-f]{64}$/);
  t.true(link.bundleUrl.startsWith(`${app.url}/bundles/${job.jobId}/tiny.test-v1.2.3.zip?`));
  const expiresIn = Date.parse(link.expiresAt) - Date.now();
  t.true(expiresIn > 3500_000 && expiresIn <= 3600_000, `default lifetime 1 h (got ${expiresIn} ms)`);
  const zip = await fetch(link.bundleUrl);
  t.is(zip.status, 200);
  t.is(Number(zip.headers.get('content-length')), link.sizeBytes);
  t.is((await zip.arrayBuffer()).byteLength, link.sizeBytes);

  // Each call signs a fresh link to the same zip.
  await new Promise((r) => setTimeout(r, 1100));
  const again = await (await app.api(`/v1/static-export/jobs/${job.jobId}/bundle`, { method: 'POST' })).json();
  t.not(again.bundleUrl, link.bundleUrl);
  t.is(again.sha256, link.sha256);
  t.is(again.sizeBytes, link.sizeBytes);
});

test('400: bad bodies (every problem listed) and domains that are not the project’s sites', async (t) => {
  const source = await makeTinySite();
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'tiny.test', source }] } });
  t.teardown(() => app.close());
  const post = (json: unknown) => app.api('/v1/static-export/jobs', { method: 'POST', json });

  const many = await post({ domain: 'https://tiny.test/', version: '../x', colour: 'red', strict: 'yes' });
  t.is(many.status, 400);
  const body = await many.json();
  t.is(body.details.length, 4, JSON.stringify(body.details));
  t.is((await post({})).status, 400);
  t.is((await post({ domain: 'tiny.test', paths: [] })).status, 400);
  const malformed = await app.api('/v1/static-export/jobs', {
    method: 'POST',
    body: '{"domain":',
    headers: { 'Content-Type': 'application/json' },
  });
  t.is(malformed.status, 400);

  const unknown = await post({ domain: 'nowhere.test' });
  t.is(unknown.status, 400);
  t.regex((await unknown.json()).details[0].message, /nowhere\.test/);

  // A site of another project is answered exactly like an unknown one.
  const other = await createProject(app.control, systemClock, 'other');
  await app.control.sites.upsert({ domain: 'theirs.test', source, ref: null, projectId: other.id, createdAt: new Date().toISOString() });
  const theirs = await post({ domain: 'theirs.test' });
  t.is(theirs.status, 400);
  t.is(app.features.exports.jobs.list().length, 0, 'nothing was queued');
});

test('401 without a key, 403 for a read-only key and when the project lacks the feature', async (t) => {
  const source = await makeTinySite();
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'tiny.test', source }] } });
  t.teardown(() => app.close());

  const anonymous = await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'tiny.test' }, key: null });
  t.is(anonymous.status, 401);
  t.is(anonymous.headers.get('www-authenticate'), 'Bearer');
  t.is((await app.api('/v1/static-export/jobs/se_0000000000000000', { key: null })).status, 401);

  const reader = await createAdminKey(app.control, systemClock, { projectId: app.projectId, name: 'reader', scope: 'read' });
  t.is((await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'tiny.test' }, key: reader.key })).status, 403);

  await app.control.projects.update(app.projectId, { features: { staticExport: false } });
  const off = await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'tiny.test' } });
  t.is(off.status, 403);
  t.deepEqual(await off.json(), { error: 'Static export requires an Enterprise plan' });
  t.is(app.features.exports.jobs.list().length, 0);
});

test('a second job on a busy domain answers 202 with the job under way; 404 for unknown and other projects’ jobs', async (t) => {
  const source = await makeTinySite();
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'tiny.test', source }] } });
  t.teardown(() => app.close());

  const first = await startExport(app, { domain: 'tiny.test' });
  const second = await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'TINY.test' } });
  // Issue 31: the hosted API defines no 409 here; the caller gets the job already under way.
  t.is(second.status, 202);
  t.is((await second.json()).jobId, first.jobId);
  t.is(app.features.exports.jobs.list().length, 1, 'nothing new was queued');

  const other = await createProject(app.control, systemClock, 'other');
  const otherKey = await createAdminKey(app.control, systemClock, { projectId: other.id, name: 'other', scope: 'write' });
  const foreign = await app.api(`/v1/static-export/jobs/${first.jobId}`, { key: otherKey.key });
  t.is(foreign.status, 404);
  t.is((await app.api(`/v1/static-export/jobs/${first.jobId}/bundle`, { method: 'POST', key: otherKey.key })).status, 404);
  t.is((await app.api('/v1/static-export/jobs/se_0123456789abcdef')).status, 404);
  t.is((await app.api('/v1/static-export/jobs/se_0123456789abcdef/bundle', { method: 'POST' })).status, 404);

  const { job } = await waitForJob(app, first.jobId, finished);
  t.is(job.status, 'completed');
  // Once the domain is free again, a new job is accepted.
  t.is((await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'tiny.test' } })).status, 202);
});

test('a job whose source is missing fails with a reason; its bundle is a 409', async (t) => {
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'gone.test', source: '/nonexistent/enclave-docs' }] } });
  t.teardown(() => app.close());
  const started = await startExport(app, { domain: 'gone.test' });
  const { job } = await waitForJob(app, started.jobId, finished);
  t.is(job.status, 'failed');
  t.deepEqual(Object.keys(job).sort(), [...JOB_FIELDS, 'error'].sort());
  t.regex(job.error!, /source directory not found/);
  const bundle = await app.api(`/v1/static-export/jobs/${job.jobId}/bundle`, { method: 'POST' });
  t.is(bundle.status, 409);
});

test('openapi.json documents the export routes and the signed download', async (t) => {
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const doc = await (await app.api('/openapi.json')).json();
  t.truthy(doc.paths['/v1/static-export/jobs'].post.responses['202']);
  t.truthy(doc.paths['/v1/static-export/jobs/{jobId}'].get);
  t.truthy(doc.paths['/v1/static-export/jobs/{jobId}/bundle'].post.responses['409']);
  const download = doc.paths['/bundles/{jobId}/{file}'].get;
  t.deepEqual(download.security, []);
  t.deepEqual(
    download.parameters
      .filter((p: { in: string }) => p.in === 'query')
      .map((p: { name: string }) => p.name)
      .sort(),
    ['expires', 'kid', 'sig'],
  );
  t.truthy(download.responses['200'].content['application/zip']);
  t.truthy(download.responses['403']);
});
