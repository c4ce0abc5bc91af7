import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { CHROME, FIREFOX, GPTBOT, startAnalyticsAppliance } from './analyticsAppliance.js';

interface Counts {
  human: number;
  ai: number;
  total: number;
}
interface ViewsBody {
  totals: Counts;
  views: ({ path: string } & Counts)[];
  hasMore: boolean;
  days?: ({ date: string } & Counts)[];
}
interface VisitorsBody {
  totals: Counts;
  visitors: ({ path: string } & Counts)[];
  hasMore: boolean;
}

test('views: counted where pages are served; readers are human, AI agents and every Markdown copy / llms.txt fetch are ai, probes and tools nowhere', async (t) => {
  const app = await startAnalyticsAppliance({ clock: new ManualClock('2026-03-01T10:00:00Z') });
  t.teardown(() => app.close());
  const served = [
    await app.visit('/', CHROME),
    await app.visit('/', FIREFOX),
    await app.visit('/guides/start', CHROME),
    await app.visit('/guides/start', GPTBOT),
    await app.visit('/guides/start.md', 'curl/8.5.0'), // a page's Markdown copy: ai whoever asks
    await app.visit('/llms.txt', ''),
    await app.visit('/', 'curl/8.5.0'),
    await app.visit('/', 'kube-probe/1.30'),
    await app.visit('/', 'python-requests/2.32'),
    await app.visit('/', 'Go-http-client/1.1'),
    await app.visit('/', ''),
    await app.visit('/', CHROME, 'HEAD'),
    await app.visit('/sitemap.xml', CHROME),
    await app.visit('/no/such/page', CHROME),
  ];
  t.deepEqual(served, [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 404]);
  const head = await fetch(`${app.url}/guides/start`, { method: 'HEAD', headers: { 'User-Agent': CHROME } });
  t.is(head.headers.get('x-enclave-site'), 'search-events', 'pages tell the search box to report');
  const body = await app.report<ViewsBody>('/views');
  t.deepEqual(body, {
    totals: { human: 3, ai: 3, total: 6 },
    views: [
      { path: '/guides/start', human: 1, ai: 2, total: 3 },
      { path: '/', human: 2, ai: 0, total: 2 },
      { path: '/llms.txt', human: 0, ai: 1, total: 1 },
    ],
    hasMore: false,
  });
});

test('visitors: one per address + user agent per page and per site, totals site-wide, and no cookie is set', async (t) => {
  const app = await startAnalyticsAppliance({ clock: new ManualClock('2026-03-01T10:00:00Z') });
  t.teardown(() => app.close());
  for (const [path, ua] of [
    ['/', CHROME],
    ['/', CHROME],
    ['/guides/start', CHROME],
    ['/', FIREFOX],
    ['/guides/start', GPTBOT],
    ['/reference', GPTBOT],
  ])
    await app.visit(path, ua);
  const res = await fetch(`${app.url}/`, { headers: { 'User-Agent': CHROME } });
  t.is(res.headers.get('set-cookie'), null);
  const body = await app.report<VisitorsBody>('/visitors');
  t.deepEqual(body, {
    totals: { human: 2, ai: 1, total: 3 },
    visitors: [
      { path: '/', human: 2, ai: 0, total: 2 },
      { path: '/guides/start', human: 1, ai: 1, total: 2 },
      { path: '/reference', human: 0, ai: 1, total: 1 },
    ],
    hasMore: false,
  });
});

test('ranges, the daily series, paging and errors of /views and /visitors', async (t) => {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const app = await startAnalyticsAppliance({ clock });
  t.teardown(() => app.close());
  await app.visit('/', CHROME);
  await app.visit('/guides/start', GPTBOT);
  clock.set('2026-03-02T23:59:59Z');
  await app.visit('/reference', CHROME);
  await app.visit('/reference', FIREFOX);
  clock.set('2026-03-04T00:00:00Z');
  await app.visit('/', CHROME);

  const total = (q: string) => app.report<ViewsBody>(`/views${q}`).then((b) => b.totals.total);
  t.is(await total(''), 5);
  t.is(await total('?dateFrom=2026-03-02'), 3, 'dateFrom inclusive');
  t.is(await total('?dateTo=2026-03-02'), 2, 'dateTo exclusive');
  t.is(await total('?dateFrom=2026-03-01&dateTo=2026-03-04'), 4);
  t.is(
    await total('?dateFrom=2026-03-02T12:00:00%2B02:00&dateTo=2026-03-03'),
    2,
    'ISO 8601 with an offset; a bound inside a day takes the whole UTC day',
  );
  t.is(await total('?dateFrom=2026-03-05'), 0);
  t.is(await total('?version=v1'), 5);
  t.is(await total('?version=v9'), 0);
  t.is(await total('?domain=other.example'), 0);

  const series = await app.report<ViewsBody>('/views?groupBy=day');
  t.deepEqual(series.days, [
    { date: '2026-03-01', human: 1, ai: 1, total: 2 },
    { date: '2026-03-02', human: 2, ai: 0, total: 2 },
    { date: '2026-03-04', human: 1, ai: 0, total: 1 },
  ]);
  t.false('days' in (await app.report<ViewsBody>('/views')), 'the series only when asked for');

  const first = await app.report<ViewsBody>('/views?limit=2');
  t.deepEqual(
    first.views.map((v) => v.path),
    ['/', '/reference'],
  );
  t.true(first.hasMore);
  const second = await app.report<ViewsBody>('/views?limit=2&offset=2');
  t.deepEqual(
    second.views.map((v) => v.path),
    ['/guides/start'],
  );
  t.false(second.hasMore);
  const visitors = await app.report<VisitorsBody & { days: unknown[] }>('/visitors?dateFrom=2026-03-02&dateTo=2026-03-03&groupBy=day');
  t.deepEqual(visitors.totals, { human: 2, ai: 0, total: 2 });
  t.deepEqual(visitors.days, [{ date: '2026-03-02', human: 2, ai: 0, total: 2 }]);

  for (const path of ['/views', '/visitors']) {
    const res = await app.api(
      `/v1/analytics/${app.projectId}${path}?dateFrom=2026-02-30&dateTo=yesterday&limit=0&offset=-1&groupBy=week&color=red`,
    );
    t.is(res.status, 400, path);
    const problems = ((await res.json()) as { error: string; details: { message: string }[] }).details.map((d) => d.message);
    t.true(problems.length >= 6, `${path}: ${problems.join(' | ')}`);
    for (const name of ['dateFrom', 'dateTo', 'limit', 'offset', 'groupBy', 'color'])
      t.true(
        problems.some((p) => p.includes(name)),
        `${path} names ${name}`,
      );
  }
  const backwards = await app.api(`/v1/analytics/${app.projectId}/views?dateFrom=2026-03-02&dateTo=2026-03-01`);
  t.is(backwards.status, 400);
  t.is((await app.api(`/v1/analytics/${app.projectId}/views`, { key: null })).status, 401);
});

test('counts survive a restart: closed days from their rollup, today from its checkpoint; a restart draws a new salt', async (t) => {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const app = await startAnalyticsAppliance({ clock });
  await app.visit('/', CHROME);
  await app.visit('/guides/start', GPTBOT);
  clock.set('2026-03-02T08:00:00Z');
  await app.visit('/', CHROME);
  await app.visit('/', CHROME);
  const before = await app.report<ViewsBody>('/views?groupBy=day');
  const visitorsBefore = await app.report<VisitorsBody>('/visitors');
  await app.stop();
  const again = await startAnalyticsAppliance({ clock, dataDir: app.dataDir, key: app.key, deploy: false });
  t.teardown(() => again.close());
  t.deepEqual(await again.report<ViewsBody>('/views?groupBy=day'), before);
  t.deepEqual(await again.report<VisitorsBody>('/visitors'), visitorsBefore);
  t.like(
    again.features.analytics.log.stats,
    { scannedDays: 0, checkpointDays: 1, scannedEvents: 0 },
    'the open day came from its checkpoint',
  );
  // The salt lives in memory only: after a restart the same reader is a new visitor of the day.
  await again.visit('/', CHROME);
  t.deepEqual((await again.report<VisitorsBody>('/visitors?dateFrom=2026-03-02')).totals, { human: 2, ai: 0, total: 2 });
});

test('analytics.collect: false records nothing', async (t) => {
  const app = await startAnalyticsAppliance({
    clock: new ManualClock('2026-03-01T10:00:00Z'),
    overrides: { analytics: { requestsPerHour: 100_000, collect: false } },
  });
  t.teardown(() => app.close());
  t.is(await app.visit('/', CHROME), 200);
  t.is(await app.visit('/llms.txt', GPTBOT), 200);
  t.deepEqual((await app.report<ViewsBody>('/views')).totals, { human: 0, ai: 0, total: 0 });
  const head = await fetch(`${app.url}/guides/start`, { method: 'HEAD', headers: { 'User-Agent': CHROME } });
  t.is(head.headers.get('x-enclave-site'), '1', 'the search box is not told to report, so it sends nothing');
  const beacon = await fetch(`${app.url}/_enclave/search-events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ type: 'search', query: 'x', results: 1 }),
  });
  t.is(beacon.status, 204);
  t.is((await app.report<{ totalSearches: number }>('/searches')).totalSearches, 0);
});
