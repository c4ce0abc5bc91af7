import test from 'ava';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ManualClock } from '../../src/platform/Clock.js';
import { createAdminKey } from '../../src/features/control/createAdminKey.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { deployAndWait, requestWithHost, startLoggedAppliance } from '../deploy/helpers/loggedAppliance.js';
import { makeSiteFiles, writeBundle } from '../deploy/helpers/testBundles.js';
import { CHROME, FIREFOX } from './analyticsAppliance.js';

// Issue 28 item 6: a search made on site B showed up in project A's report, and a click on a
// page only site B has was refused 400. Every event now belongs to the site that served the
// page, and every report of one project leaves the other's out.

const B = 'b.docs.internal';
const PROJECT_B = 'proj_00000000000000bb';

test('two projects side by side: views, visitors, searches, clicks and feedback of site B go to project B only, and no report of either crosses over', async (t) => {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const dir = await makeTempDir('enclave-two-projects-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const filesA = makeSiteFiles('a1');
  delete filesA['reference.html']; // only B has /reference
  await writeBundle(join(dir, 'a1.zip'), 'a1', { files: filesA });
  await writeBundle(join(dir, 'b1.zip'), 'b1', { manifestFields: { domain: B } });
  const app = await startLoggedAppliance({
    clock,
    overrides: {
      sites: [
        { domain: 'docs.test.internal', source: dir }, // the default site's bundle names this domain: project A
        { domain: B, source: dir, projectId: PROJECT_B },
      ],
      analytics: { requestsPerHour: 100_000 },
    },
  });
  t.teardown(() => app.close());
  await app.control.projects.insert({ id: PROJECT_B, name: 'B', features: { staticExport: true }, createdAt: clock.now().toISOString() });
  const keyB = (await createAdminKey(app.control, clock, { projectId: PROJECT_B, name: 'b', scope: 'write' })).key;
  const projectA = app.projectId;
  t.not(projectA, PROJECT_B);
  t.is((await deployAndWait(app, { bundleUrl: join(dir, 'a1.zip') })).status, 'active');
  const deployB = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: join(dir, 'b1.zip'), domain: B }, key: keyB });
  t.true(deployB.status === 200 || deployB.status === 202, await deployB.text());
  for (let i = 0; i < 100 && (await requestWithHost(`${app.url}/`, B)).body.indexOf('b1') < 0; i++)
    await new Promise((r) => setTimeout(r, 100));

  const A = new URL(app.url).host; // the default site (project A) answers its own address
  const get = (host: string, path: string, ua: string) => requestWithHost(`${app.url}${path}`, host, { headers: { 'User-Agent': ua } });
  const post = (host: string, path: string, body: unknown) =>
    requestWithHost(`${app.url}${path}`, host, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'User-Agent': CHROME },
      body: JSON.stringify(body),
    });
  t.is((await get(A, '/', CHROME)).status, 200);
  t.is((await get(B, '/guides/start', FIREFOX)).status, 200);
  t.is((await get(B, '/reference', CHROME)).status, 200);
  t.is((await post(A, '/_enclave/search-events', { type: 'search', query: 'alpha', results: 1 })).status, 204);
  t.is((await post(B, '/_enclave/search-events', { type: 'search', query: 'bravo', results: 2 })).status, 204);
  const click = await post(B, '/_enclave/search-events', { type: 'click', query: 'bravo', path: '/reference' });
  t.is(click.status, 204, `a click on a page of site B is accepted: ${click.body}`);
  t.is(
    (await post(A, '/_enclave/search-events', { type: 'click', query: 'alpha', path: '/reference' })).status,
    400,
    'A has no /reference',
  );
  t.is((await post(A, '/_enclave/feedback', { source: 'thumbs_only', path: '/', helpful: true })).status, 201);
  t.is((await post(B, '/_enclave/feedback', { source: 'thumbs_only', path: '/reference', helpful: false })).status, 201);
  await app.features.analytics.log.flush();

  const report = async (project: string, key: string | undefined, path: string) => {
    const res = await app.api(`/v1/analytics/${project}${path}`, key ? { key } : {});
    t.is(res.status, 200, `${project}${path}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const paths = (rows: unknown) => (rows as { path: string }[]).map((r) => r.path).sort();
  for (const [project, key, want] of [
    [projectA, undefined, { pages: ['/'], visitors: 1, query: 'alpha', domainCheck: (d: string) => d !== B }],
    [PROJECT_B, keyB, { pages: ['/guides/start', '/reference'], visitors: 2, query: 'bravo', domainCheck: (d: string) => d === B }],
  ] as const) {
    t.deepEqual(paths((await report(project, key, '/views')).views), [...want.pages], `${project} views`);
    const visitors = await report(project, key, '/visitors');
    t.deepEqual(paths(visitors.visitors), [...want.pages], `${project} visitors`);
    t.is((visitors.totals as { total: number }).total, want.visitors, `${project}: the visitors of its own site`);
    const searches = (await report(project, key, '/searches')).searches as { searchQuery: string; ctr: number }[];
    t.deepEqual(
      searches.map((s) => s.searchQuery),
      [want.query],
      `${project} searches`,
    );
    const feedback = (await report(project, key, '/feedback')).feedback as { domain: string; path: string }[];
    t.is(feedback.length, 1, `${project} feedback`);
    t.true(want.domainCheck(feedback[0].domain), `${project} feedback domain ${feedback[0].domain}`);
    t.deepEqual(paths((await report(project, key, '/feedback/by-page')).feedback), [feedback[0].path], `${project} feedback by page`);
    const days = (await report(project, key, '/feedback/by-day')).days as { total: number }[];
    t.is(
      days.reduce((s, d) => s + d.total, 0),
      1,
      `${project} feedback by day`,
    );
  }
  const bravo = ((await report(PROJECT_B, keyB, '/searches')).searches as { ctr: number; topClickedPage: string }[])[0];
  t.like(bravo, { ctr: 1, topClickedPage: '/reference' });
  for (const path of ['/views', '/visitors', '/searches', '/feedback', '/feedback/by-page', '/feedback/by-day']) {
    t.is((await app.api(`/v1/analytics/${PROJECT_B}${path}`)).status, 403, `A's key on B's ${path}`);
    t.is((await app.api(`/v1/analytics/${projectA}${path}`, { key: keyB })).status, 403, `B's key on A's ${path}`);
  }
});
