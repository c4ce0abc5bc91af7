import test from 'ava';
import { startTestAppliance } from '../helpers/testAppliance.js';
import { makeTinySite } from '../export/exportTestHelpers.js';

test('export paths that are no page: 400 naming each of them, and nothing is queued', async (t) => {
  const source = await makeTinySite(3);
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'paths.test', source }] } });
  t.teardown(() => app.close());
  const res = await app.api('/v1/static-export/jobs', {
    method: 'POST',
    json: { domain: 'paths.test', paths: ['page-1', 'no-such-page', '/index', 'guides/missing'] },
  });
  t.is(res.status, 400);
  const body = await res.json();
  t.deepEqual(
    body.details.map((d: { message: string }) => d.message),
    ["body.paths: 'no-such-page' is not a page of this site", "body.paths: 'guides/missing' is not a page of this site"],
  );
  t.is(app.features.exports.jobs.list().length, 0);

  const ok = await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'paths.test', paths: ['page-1', '/index'] } });
  t.is(ok.status, 202, 'pages that exist are accepted');
});
