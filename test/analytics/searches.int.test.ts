import test from 'ava';
import { request } from 'node:http';
import { ManualClock } from '../../src/platform/Clock.js';
import { startAnalyticsAppliance, type AnalyticsAppliance } from './analyticsAppliance.js';

interface SearchesBody {
  searches: { searchQuery: string; hits: number; ctr: number; topClickedPage: string | null; lastSearchedAt: string; results: number }[];
  totalSearches: number;
  nextCursor: string | null;
}

/** A beacon with an Origin header (fetch() won't send one it was given). */
function postFrom(app: AnalyticsAppliance, origin: string, body: unknown): Promise<number> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        path: '/_enclave/search-events',
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function beacon(app: AnalyticsAppliance, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${app.url}/_enclave/search-events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

test('searches: hits, click-through, top clicked page, last searched, most searched first; queries grouped ignoring case and spacing', async (t) => {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const app = await startAnalyticsAppliance({ clock });
  t.teardown(() => app.close());
  const send = async (body: unknown) => t.is((await beacon(app, body)).status, 204);
  await send({ type: 'search', query: 'Install', results: 3 });
  await send({ type: 'click', query: 'install', path: '/guides/start' });
  clock.advance(60_000);
  await send({ type: 'search', query: '  install ', results: 2 });
  await send({ type: 'search', query: 'INSTALL', results: 2 });
  await send({ type: 'click', query: 'install', path: '/guides/start' });
  await send({ type: 'click', query: 'install', path: '/' });
  await send({ type: 'search', query: 'kubernetes operator', results: 0 });
  const body = await app.report<SearchesBody>('/searches');
  t.deepEqual(body, {
    searches: [
      { searchQuery: 'install', hits: 3, ctr: 1, topClickedPage: '/guides/start', lastSearchedAt: '2026-03-01T10:01:00.000Z', results: 2 },
      { searchQuery: 'kubernetes operator', hits: 1, ctr: 0, topClickedPage: null, lastSearchedAt: '2026-03-01T10:01:00.000Z', results: 0 },
    ],
    totalSearches: 4,
    nextCursor: null,
  });
  const empty = await app.report<SearchesBody>('/searches?noResults=true');
  t.deepEqual(
    empty.searches.map((s) => s.searchQuery),
    ['kubernetes operator'],
  );
});

test('searches: date range, cursor paging, and every bad parameter or beacon refused', async (t) => {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const app = await startAnalyticsAppliance({ clock });
  t.teardown(() => app.close());
  for (let i = 0; i < 5; i++) for (let n = 0; n <= i; n++) await beacon(app, { type: 'search', query: `q${i}`, results: 1 });
  clock.set('2026-03-03T10:00:00Z');
  await beacon(app, { type: 'search', query: 'later', results: 1 });
  t.is((await app.report<SearchesBody>('/searches?dateTo=2026-03-02')).totalSearches, 15);
  t.deepEqual(
    (await app.report<SearchesBody>('/searches?dateFrom=2026-03-02')).searches.map((s) => s.searchQuery),
    ['later'],
  );

  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page: SearchesBody = await app.report<SearchesBody>(`/searches?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    seen.push(...page.searches.map((s) => s.searchQuery));
    t.is(page.totalSearches, 16);
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < 10);
  t.deepEqual(seen, ['q4', 'q3', 'q2', 'q1', 'later', 'q0']);
  t.is(pages, 3);

  const bad = await app.api(`/v1/analytics/${app.projectId}/searches?cursor=zz&limit=5000&dateFrom=soon&noResults=maybe`);
  t.is(bad.status, 400);
  const problems = ((await bad.json()) as { details: { message: string }[] }).details.map((d) => d.message);
  for (const name of ['cursor', 'limit', 'dateFrom', 'noResults'])
    t.true(
      problems.some((p) => p.includes(name)),
      `names ${name}: ${problems.join(' | ')}`,
    );

  t.is((await beacon(app, { type: 'search', query: '', results: 1 })).status, 400);
  t.is((await beacon(app, { type: 'search', query: 'x', results: -1 })).status, 400);
  t.is((await beacon(app, { type: 'click', query: 'x', path: '/not/a/page' })).status, 400, 'clicks name pages of the live site only');
  t.is((await beacon(app, { type: 'view', query: 'x' })).status, 400);
  t.is(await postFrom(app, 'http://evil.example', { type: 'search', query: 'x', results: 1 }), 403);
  t.is(await postFrom(app, app.url, { type: 'search', query: 'x', results: 1 }), 204, 'the site itself may');
  t.is((await app.report<SearchesBody>('/searches?dateFrom=2026-03-02')).totalSearches, 2, 'nothing refused was stored');
});

test('one analytics budget: /views, /visitors, /searches and the feedback endpoints share 100 requests per project per hour', async (t) => {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const app = await startAnalyticsAppliance({ clock, overrides: { analytics: { requestsPerHour: 100 } } });
  t.teardown(() => app.close());
  const paths = ['/views', '/visitors', '/searches', '/feedback', '/feedback/by-page', '/feedback/by-day'];
  // The deployment made no analytics requests, so the whole budget is left.
  for (let i = 0; i < 100; i++)
    t.is((await app.api(`/v1/analytics/${app.projectId}${paths[i % paths.length]}`)).status, 200, `request ${i + 1}`);
  for (const path of paths) {
    const res = await app.api(`/v1/analytics/${app.projectId}${path}`);
    t.is(res.status, 429, path);
    t.regex(res.headers.get('ratelimit-policy') ?? '', /"analytics";q=100;w=3600/);
    t.truthy(res.headers.get('retry-after'));
  }
  clock.advance(60 * 60_000);
  t.is((await app.api(`/v1/analytics/${app.projectId}/views`)).status, 200);
});

test('analytics flood bounds: past analytics.eventsPerMinute events are dropped (pages still served, beacons 429), and below the free-space floor nothing is recorded (beacons 507)', async (t) => {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const app = await startAnalyticsAppliance({ clock, overrides: { analytics: { requestsPerHour: 100_000, eventsPerMinute: 3 } } });
  t.teardown(() => app.close());
  const ua = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0';
  // Five readers (a repeat by one visitor would count once).
  for (let i = 0; i < 5; i++) t.is(await app.visit('/', `${ua} r${i}`), 200);
  t.is((await app.report<{ totals: { total: number } }>('/views')).totals.total, 3);
  t.is((await beacon(app, { type: 'search', query: 'x', results: 1 })).status, 429);
  clock.advance(60_000);
  t.is((await beacon(app, { type: 'search', query: 'x', results: 1 })).status, 204);

  const full = await startAnalyticsAppliance({
    clock,
    overrides: { analytics: { requestsPerHour: 100_000 }, limits: { minFreeBytes: Number.MAX_SAFE_INTEGER } },
  });
  t.teardown(() => full.close());
  t.is(await full.visit('/', ua), 200);
  t.is((await beacon(full, { type: 'search', query: 'x', results: 1 })).status, 507);
  t.is((await full.report<{ totals: { total: number } }>('/views')).totals.total, 0);
});
