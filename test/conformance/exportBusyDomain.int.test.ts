import test from 'ava';
import { startTestAppliance } from '../helpers/testAppliance.js';
import { makeTinySite } from '../export/exportTestHelpers.js';

test('a second export of a domain with a job under way answers 202 with that job, not 409', async (t) => {
  const source = await makeTinySite();
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'busy.test', source }] } });
  t.teardown(() => app.close());
  // Both requests in one go, so the first is surely still queued or running when the second lands.
  const [a, b] = await Promise.all([1, 2].map(() => app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'busy.test' } })));
  t.deepEqual([a!.status, b!.status], [202, 202]);
  const [first, second] = [await a!.json(), await b!.json()];
  t.is(first.jobId, second.jobId, 'both callers follow the one job');
  t.is(app.features.exports.jobs.list().length, 1);
});
