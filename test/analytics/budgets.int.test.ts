import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { startFeedbackHarness } from '../feedback/feedbackHarness.js';
import { CHROME, startAnalyticsAppliance, type AnalyticsAppliance } from './analyticsAppliance.js';

// Issue 28 item 7: one client made 500 GETs into 500 views and 500 User-Agents into 500
// visitors, 304 replies counted as views, one address spent the global analytics budget so
// other readers' searches got 429, and one flooded page used up the feedback budget of all.

interface Totals {
  totals: { human: number; ai: number; total: number };
  views?: { path: string; total: number }[];
}

/** A GET as the client at `address` (the appliance trusts X-Forwarded-For here). */
async function visit(app: AnalyticsAppliance, path: string, address: string, ua: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${app.url}${path}`, { headers: { 'User-Agent': ua, 'X-Forwarded-For': address, ...headers } });
  await res.arrayBuffer();
  return res;
}

function search(app: AnalyticsAppliance, address: string, query: string): Promise<number> {
  return fetch(`${app.url}/_enclave/search-events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': address },
    body: JSON.stringify({ type: 'search', query, results: 1 }),
  }).then(async (res) => {
    await res.arrayBuffer();
    return res.status;
  });
}

test('one visitor: 500 GETs of a page and its 304 revalidations are one view within analytics.repeatViewSeconds; after it, one more', async (t) => {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const app = await startAnalyticsAppliance({ clock, overrides: { server: { trustProxy: true } } });
  t.teardown(() => app.close());
  for (let i = 0; i < 500; i++) t.is((await visit(app, '/', '10.0.0.1', CHROME)).status, 200);
  const first = await visit(app, '/guides/start', '10.0.0.1', CHROME);
  const etag = first.headers.get('etag') ?? '';
  t.truthy(etag);
  for (let i = 0; i < 20; i++) t.is((await visit(app, '/guides/start', '10.0.0.1', CHROME, { 'If-None-Match': etag })).status, 304);
  const views = async () => Object.fromEntries(((await app.report<Totals>('/views')).views ?? []).map((v) => [v.path, v.total]));
  t.deepEqual(await views(), { '/': 1, '/guides/start': 1 });
  clock.advance(600_000);
  t.is((await visit(app, '/guides/start', '10.0.0.1', CHROME, { 'If-None-Match': etag })).status, 304);
  t.deepEqual(await views(), { '/': 1, '/guides/start': 2 }, 'a revalidation after the window is a view again');
  t.is((await visit(app, '/', '10.0.0.2', CHROME)).status, 200);
  t.deepEqual(await views(), { '/': 2, '/guides/start': 2 }, 'another reader is another view');
});

test('one address with a new User-Agent per request: views stop at its own budget, visitors at its hourly budget plus one, and other readers keep the global budget for their searches', async (t) => {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const app = await startAnalyticsAppliance({
    clock,
    overrides: { server: { trustProxy: true }, analytics: { requestsPerHour: 100_000, eventsPerMinute: 300 } },
  });
  t.teardown(() => app.close());
  for (let i = 0; i < 500; i++) t.is((await visit(app, '/', '10.0.0.1', `${CHROME} flood/${i}`)).status, 200);
  for (let i = 0; i < 200; i++) await search(app, '10.0.0.1', `unique query ${i}`);
  t.is(await search(app, '10.0.0.1', 'one more'), 429, 'the address spent its own search budget');
  // 120 views + 120 searches of the flooding address leave 60 of the 300 for everyone else.
  t.is(await search(app, '10.0.0.9', 'a reader'), 204, "another reader's search still fits the global budget");
  t.is((await visit(app, '/reference', '10.0.0.9', CHROME)).status, 200);
  const views = await app.report<Totals>('/views');
  t.is(views.totals.total, 120 + 1, 'analytics.viewsPerAddressPerMinute (120) of the flood, and the other reader');
  const visitors = await app.report<Totals>('/visitors');
  t.is(visitors.totals.total, 60 + 1 + 1, 'analytics.visitorsPerAddressPerHour (60), the overflow visitor, the other reader');
});

test('feedback: one flooded page spends its own per-page budget, not the global one; other pages are still accepted', async (t) => {
  const clock = new ManualClock('2026-03-01T00:00:00.000Z');
  const h = await startFeedbackHarness({
    clock,
    overrides: { feedback: { perClientPerMinute: 100_000, perPagePerMinute: 3, globalPerMinute: 10 } },
  });
  t.teardown(() => h.close());
  const statuses: number[] = [];
  for (let i = 0; i < 30; i++) statuses.push((await h.post({ source: 'thumbs_only', path: '/', helpful: true })).status);
  t.deepEqual(statuses.slice(0, 4), [201, 201, 201, 429]);
  t.is(statuses.filter((s) => s === 201).length, 3);
  for (const path of ['/guides/start', '/reference/api'])
    t.is((await h.post({ source: 'thumbs_only', path, helpful: true })).status, 201, `${path} is not starved by the flood of /`);
});
