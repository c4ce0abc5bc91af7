import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import type { FeedbackSubmission } from '../../src/features/feedback/FeedbackEntry.js';
import { createAdminKey } from '../../src/features/control/createAdminKey.js';
import { createProject } from '../../src/features/control/createProject.js';
import { startFeedbackHarness, type FeedbackHarness } from './feedbackHarness.js';
import type { FeedbackPageBody } from '../../src/features/feedback/routes/presentFeedback.js';

type Page = FeedbackPageBody;

const big = { analytics: { requestsPerHour: 100_000 } };

async function seed(h: FeedbackHarness, rows: [string, FeedbackSubmission][]): Promise<string[]> {
  const ids: string[] = [];
  for (const [at, submission] of rows) ids.push((await h.module.log.append(h.projectId, submission, new Date(at))).id);
  return ids;
}

async function page(h: FeedbackHarness, query: string): Promise<Page> {
  const res = await h.api(`/feedback${query}`);
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  return (await res.json()) as Page;
}

async function problems(h: FeedbackHarness, query: string): Promise<string[]> {
  const res = await h.api(`/feedback${query}`);
  if (res.status !== 400) throw new Error(`expected 400 for ${query}, got ${res.status}`);
  const body = (await res.json()) as { error: string; details: { message: string }[] };
  return body.details.map((d) => d.message);
}

const ctx = (helpful: boolean, path = '/'): FeedbackSubmission => ({ source: 'contextual', path, helpful });
const code = (path = '/guides/start'): FeedbackSubmission => ({ source: 'code_snippet', path, code: 'ls', lang: 'bash' });

test('entry shape per source, newest first', async (t) => {
  const h = await startFeedbackHarness({ overrides: big });
  t.teardown(() => h.close());
  await seed(h, [
    ['2026-03-01T10:00:00.000Z', { source: 'contextual', path: '/', helpful: false, comment: 'meh', contact: 'a@b.co' }],
    ['2026-03-01T11:00:00.000Z', { source: 'code_snippet', path: '/guides/start', code: 'npm i', filename: 'a.sh', lang: 'bash' }],
    ['2026-03-01T12:00:00.000Z', { source: 'agent', path: '/', comment: 'hi' }],
  ]);
  const { feedback, nextCursor, hasMore } = await page(h, '');
  t.deepEqual(
    feedback.map((e) => e.source),
    ['agent', 'code_snippet', 'contextual'],
  );
  t.is(nextCursor, null);
  t.false(hasMore);
  const [agent, snippet, contextual] = feedback;
  t.deepEqual(Object.keys(agent).sort(), ['comment', 'createdAt', 'domain', 'id', 'path', 'source', 'status']);
  t.is(agent.domain, null, 'appended without a site: no domain');
  t.like(snippet, {
    code: 'npm i',
    filename: 'a.sh',
    lang: 'bash',
    comment: null,
    status: 'pending',
    createdAt: '2026-03-01T11:00:00.000Z',
  });
  t.false('helpful' in snippet);
  t.like(contextual, { helpful: false, contact: 'a@b.co', comment: 'meh' });
  t.false('code' in contextual);
});

test('filters: dateFrom inclusive, dateTo exclusive, source, status subsets, and their combinations', async (t) => {
  const h = await startFeedbackHarness({ overrides: big });
  t.teardown(() => h.close());
  const ids = await seed(h, [
    ['2026-02-28T23:59:59.999Z', ctx(true)],
    ['2026-03-01T00:00:00.000Z', ctx(false)],
    ['2026-03-01T12:00:00.000Z', code()],
    ['2026-03-02T00:00:00.000Z', ctx(true)],
    ['2026-03-02T00:00:00.001Z', code()],
  ]);
  await h.module.log.setStatus(h.projectId, ids[2], 'resolved', new Date('2026-03-05T00:00:00Z'));
  await h.module.log.setStatus(h.projectId, ids[1], 'dismissed', new Date('2026-03-05T00:00:00Z'));
  const got = async (q: string) => (await page(h, q)).feedback.map((e) => ids.indexOf(e.id));
  t.deepEqual(await got('?dateFrom=2026-03-01&dateTo=2026-03-02'), [2, 1], 'from inclusive at midnight, to exclusive at midnight');
  t.deepEqual(await got('?dateFrom=2026-03-01T00:00:00.000Z'), [4, 3, 2, 1]);
  t.deepEqual(await got('?dateTo=2026-03-01'), [0]);
  t.deepEqual(await got('?dateTo=2026-03-02T00:00:00.001Z'), [3, 2, 1, 0], 'exclusive by one millisecond');
  t.deepEqual(await got('?source=code_snippet'), [4, 2]);
  t.deepEqual(await got('?status=pending'), [4, 3, 0]);
  t.deepEqual(await got('?status=resolved,dismissed'), [2, 1]);
  t.deepEqual(await got('?status=resolved,resolved'), [2]);
  t.deepEqual(await got('?source=contextual&status=pending'), [3, 0]);
  t.deepEqual(await got('?source=code_snippet&status=pending&dateFrom=2026-03-01&dateTo=2026-03-03'), [4]);
  t.deepEqual(await got('?source=agent'), []);
  t.deepEqual(await got('?dateFrom=2026-03-01&dateTo=2026-03-01'), [], 'an empty range is empty, not an error');
});

test('time-zone offsets are converted to UTC', async (t) => {
  const h = await startFeedbackHarness({ overrides: big });
  t.teardown(() => h.close());
  const ids = await seed(h, [
    ['2026-03-01T07:59:00.000Z', ctx(true)],
    ['2026-03-01T08:00:00.000Z', ctx(true)],
  ]);
  // 10:00 at +02:00 is 08:00Z; -05:30 shifts the other way.
  t.deepEqual(
    (await page(h, `?dateFrom=${encodeURIComponent('2026-03-01T10:00:00+02:00')}`)).feedback.map((e) => e.id),
    [ids[1]],
  );
  t.deepEqual(
    (await page(h, `?dateTo=${encodeURIComponent('2026-03-01T02:30:00-05:30')}`)).feedback.map((e) => e.id),
    [ids[0]],
  );
  t.deepEqual(
    (await page(h, `?dateFrom=${encodeURIComponent('2026-03-01T10:00+0200')}`)).feedback.map((e) => e.id),
    [ids[1]],
  );
});

test('invalid parameters: every problem in one 400', async (t) => {
  const h = await startFeedbackHarness({ overrides: big });
  t.teardown(() => h.close());
  const all = await problems(h, '?dateFrom=2026-02-30&dateTo=yesterday&source=email&status=pending,open&limit=abc&cursor=zzz&colour=red');
  for (const field of ['dateFrom', 'dateTo', 'source', 'status', 'limit', 'cursor', 'colour']) {
    t.true(
      all.some((m) => m.includes(field)),
      `${field} in ${JSON.stringify(all)}`,
    );
  }
  for (const bad of [
    '2026-02-30',
    '2026-13-01',
    '2026-1-1',
    '2026-03-01T25:00:00Z',
    '03/01/2026',
    '2026-03-01T10:00:00+25:00',
    '1709251200',
  ]) {
    t.true(
      (await problems(h, `?dateFrom=${encodeURIComponent(bad)}`)).some((m) => m.startsWith('query.dateFrom')),
      bad,
    );
  }
  t.true((await problems(h, '?dateFrom=2026-03-02&dateTo=2026-03-01')).some((m) => m.includes('dateTo')));
  // Issue 31: an empty value counts as absent, and a time without an offset is UTC (test/conformance/queryStrings).
  t.is((await h.api('/feedback?status=&dateFrom=2026-03-01T10:00:00')).status, 200);
  t.true((await problems(h, '?source=contextual&source=agent')).some((m) => m.includes('source')));
  t.is((await h.api('/feedback?dateFrom=2028-02-29')).status, 200, 'a real leap day');
});

test('limit bounds: 0, 101, abc, -1, 1.5 refused; 1 and 100 work; default 50', async (t) => {
  const h = await startFeedbackHarness({ overrides: big });
  t.teardown(() => h.close());
  const rows: [string, FeedbackSubmission][] = [];
  for (let i = 0; i < 120; i++) rows.push([new Date(Date.UTC(2026, 2, 1, 0, 0, i)).toISOString(), ctx(i % 2 === 0)]);
  await seed(h, rows);
  for (const bad of ['0', '101', 'abc', '-1', '1.5', '1e2', '10.5']) {
    t.true(
      (await problems(h, `?limit=${bad}`)).some((m) => m.startsWith('query.limit')),
      bad,
    );
  }
  t.is((await page(h, '?limit=1')).feedback.length, 1);
  t.is((await page(h, '?limit=100')).feedback.length, 100);
  const dflt = await page(h, '');
  t.is(dflt.feedback.length, 50);
  t.true(dflt.hasMore);
});

test('cursor: full walk, tampering detected, reuse with other filters refused', async (t) => {
  const h = await startFeedbackHarness({ overrides: big });
  t.teardown(() => h.close());
  const rows: [string, FeedbackSubmission][] = [];
  // Several entries share a timestamp so the id tie-break matters.
  for (let i = 0; i < 25; i++)
    rows.push([new Date(Date.UTC(2026, 2, 1, 0, 0, Math.floor(i / 3))).toISOString(), i % 4 === 0 ? code() : ctx(true)]);
  const ids = await seed(h, rows);
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let n = 0; n < 20; n++) {
    const p: Page = await page(h, `?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
    seen.push(...p.feedback.map((e) => e.id));
    t.is(p.hasMore, p.nextCursor !== null);
    if (!p.nextCursor) break;
    cursor = p.nextCursor;
  }
  t.deepEqual([...seen].sort(), [...ids].sort(), 'every entry exactly once');
  t.is(new Set(seen).size, seen.length);

  const first = await page(h, '?limit=2&source=contextual');
  const c = first.nextCursor!;
  t.is((await h.api(`/feedback?limit=2&source=contextual&cursor=${c}`)).status, 200);
  t.is((await h.api(`/feedback?limit=7&source=contextual&cursor=${c}`)).status, 200, 'page size may change between pages');
  for (const other of [
    '?limit=2',
    '?limit=2&source=code_snippet',
    '?limit=2&source=contextual&status=pending',
    '?limit=2&source=contextual&dateFrom=2026-01-01',
  ]) {
    const res = await h.api(`/feedback${other}&cursor=${c}`);
    t.is(res.status, 400, other);
    t.regex(JSON.stringify(await res.json()), /other filters/);
  }
  // Flip one character of the payload, of the signature; forge a well-formed payload.
  const [payload, sig] = c.split('.');
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { t: number };
  const forged = Buffer.from(JSON.stringify({ ...decoded, t: decoded.t + 1000 })).toString('base64url');
  for (const bad of [`${flip(payload, 5)}.${sig}`, `${payload}.${flip(sig, 3)}`, `${forged}.${sig}`, payload, 'x.y', `${c}.extra`, '%%%']) {
    const msgs = await problems(h, `?limit=2&source=contextual&cursor=${encodeURIComponent(bad)}`);
    t.true(
      msgs.some((m) => m.startsWith('query.cursor')),
      bad,
    );
  }
  // A cursor from another project's key is refused too (its filters hash names its project).
  const other = await createProject(h.control, new ManualClock(), 'other');
  const otherKey = await createAdminKey(h.control, new ManualClock(), { projectId: other.id, name: 'o', scope: 'read' });
  const res = await fetch(`${h.url}/v1/analytics/${other.id}/feedback?limit=2&source=contextual&cursor=${c}`, {
    headers: { Authorization: `Bearer ${otherKey.key}` },
  });
  t.is(res.status, 400);
});

test('paging while entries are inserted concurrently: no duplicates, no gaps', async (t) => {
  const clock = new ManualClock('2026-04-01T00:00:00.000Z');
  const h = await startFeedbackHarness({
    clock,
    overrides: { ...big, feedback: { perClientPerMinute: 100_000, perPagePerMinute: 100_000, globalPerMinute: 100_000 } },
  });
  t.teardown(() => h.close());
  // 300 existing entries, several per millisecond so ties on createdAt are common.
  const rows: [string, FeedbackSubmission][] = [];
  for (let i = 0; i < 300; i++)
    rows.push([new Date(Date.parse('2026-03-01T00:00:00Z') + Math.floor(i / 4)).toISOString(), ctx(i % 2 === 0)]);
  const existing = await seed(h, rows);
  const seen: string[] = [];
  const mustSee: string[] = [];
  let cursor: string | null = null;
  let inserted = 0;
  for (let n = 0; n < 100; n++) {
    // While a page is being fetched, readers post new (newer) feedback, and an entry dated
    // just before the last one seen lands too (a clock stepped back): it sorts into the part
    // not paged yet, so it must show up later exactly once.
    const posts = Array.from({ length: 5 }, () => h.post({ source: 'thumbs_only', path: '/', helpful: true }));
    const [p, ...answers]: [Page, ...Response[]] = await Promise.all([page(h, `?limit=17${cursor ? `&cursor=${cursor}` : ''}`), ...posts]);
    t.true(answers.every((r) => r.status === 201));
    inserted += answers.length;
    clock.advance(1);
    seen.push(...p.feedback.map((e) => e.id));
    const tail = p.feedback.at(-1);
    if (tail && p.nextCursor) {
      const older = await h.module.log.append(
        h.projectId,
        { source: 'thumbs_only', path: '/', helpful: false },
        new Date(Date.parse(tail.createdAt) - 1),
      );
      mustSee.push(older.id);
    }
    if (!p.nextCursor) break;
    cursor = p.nextCursor;
  }
  t.is(new Set(seen).size, seen.length, 'no duplicates');
  const seenSet = new Set(seen);
  t.true(
    existing.every((id) => seenSet.has(id)),
    'no gaps: every entry that existed when paging began was seen',
  );
  t.true(mustSee.length > 10 && mustSee.every((id) => seenSet.has(id)), 'entries inserted behind the cursor were seen');
  t.true(inserted > 0);
});

test('by-page: the hosted shape { feedback: [{ path, thumbsUp, thumbsDown, code, total }], hasMore }, busiest first, same filters, limit (default 10)', async (t) => {
  const h = await startFeedbackHarness({
    overrides: big,
    pages: ['/', '/guides/start', ...Array.from({ length: 11 }, (_, i) => `/p${i}`)],
  });
  t.teardown(() => h.close());
  await seed(h, [
    ['2026-03-01T00:00:00.000Z', ctx(true, '/')],
    ['2026-03-01T00:00:01.000Z', ctx(false, '/')],
    ['2026-03-01T00:00:02.000Z', ctx(false, '/')],
    ['2026-03-01T00:00:03.000Z', code('/')],
    ['2026-03-01T00:00:04.000Z', { source: 'thumbs_only', path: '/guides/start', helpful: true }],
    ['2026-03-05T00:00:00.000Z', code('/guides/start')],
  ]);
  const res = await h.api('/feedback/by-page');
  t.is(res.status, 200);
  t.deepEqual(await res.json(), {
    feedback: [
      { path: '/', thumbsUp: 1, thumbsDown: 2, code: 1, total: 4 },
      // The thumbs_only rating is in the total but no thumb: thumbs count contextual ratings (issue 31).
      { path: '/guides/start', thumbsUp: 0, thumbsDown: 0, code: 1, total: 2 },
    ],
    hasMore: false,
  });
  const filtered = await h.api('/feedback/by-page?dateTo=2026-03-02&source=contextual');
  t.deepEqual(await filtered.json(), { feedback: [{ path: '/', thumbsUp: 1, thumbsDown: 2, code: 0, total: 3 }], hasMore: false });
  const bad = await h.api('/feedback/by-page?limit=0&dateFrom=nope&status=open');
  t.is(bad.status, 400);
  t.is(((await bad.json()) as { details: unknown[] }).details.length, 3, 'every bad parameter is listed');
  // Eleven more pages with one entry each: the default limit is 10, hasMore tells there are more.
  await seed(
    h,
    Array.from({ length: 11 }, (_, i): [string, FeedbackSubmission] => ['2026-03-06T00:00:00.000Z', ctx(true, `/p${i}`)]),
  );
  const first = (await (await h.api('/feedback/by-page')).json()) as { feedback: { path: string }[]; hasMore: boolean };
  t.is(first.feedback.length, 10);
  t.true(first.hasMore);
  const all = (await (await h.api('/feedback/by-page?limit=13')).json()) as { feedback: { path: string }[]; hasMore: boolean };
  t.is(all.feedback.length, 13);
  t.false(all.hasMore);
});

test('by-day: entries per UTC day and source, oldest first, with the same filters', async (t) => {
  const h = await startFeedbackHarness({ overrides: big });
  t.teardown(() => h.close());
  const ids = await seed(h, [
    ['2026-03-01T00:00:00.000Z', ctx(true)],
    ['2026-03-01T23:59:59.999Z', code()],
    ['2026-03-01T12:00:00.000Z', ctx(false)],
    ['2026-03-03T08:00:00.000Z', { source: 'agent', path: '/', comment: 'x' }],
  ]);
  await h.module.log.setStatus(h.projectId, ids[2], 'resolved', new Date('2026-03-05T00:00:00Z'));
  const res = await h.api('/feedback/by-day');
  t.is(res.status, 200);
  t.deepEqual(await res.json(), {
    days: [
      { date: '2026-03-01', contextual: 2, code_snippet: 1, thumbs_only: 0, agent: 0, total: 3 },
      { date: '2026-03-03', contextual: 0, code_snippet: 0, thumbs_only: 0, agent: 1, total: 1 },
    ],
  });
  const pending = (await (await h.api('/feedback/by-day?status=pending&dateTo=2026-03-02')).json()) as { days: unknown[] };
  t.deepEqual(pending.days, [{ date: '2026-03-01', contextual: 1, code_snippet: 1, thumbs_only: 0, agent: 0, total: 2 }]);
  const bad = await h.api('/feedback/by-day?dateFrom=x&source=nope&limit=3');
  t.is(bad.status, 400);
  t.is(((await bad.json()) as { details: unknown[] }).details.length, 3);
});

test('PATCH status: persists as a record, filters see it, unknown id → 404, bad status → 400, read key → 403', async (t) => {
  const h = await startFeedbackHarness({ overrides: big });
  t.teardown(() => h.close({ keepData: true }));
  const [id] = await seed(h, [['2026-03-01T00:00:00.000Z', ctx(false)]]);
  const res = await h.api(`/feedback/${id}`, { method: 'PATCH', json: { status: 'in_progress' } });
  t.is(res.status, 200);
  t.like(await res.json(), { id, status: 'in_progress', helpful: false });
  t.is((await page(h, '?status=in_progress')).feedback[0].id, id);
  t.is((await h.api('/feedback/fb_0000000000000000', { method: 'PATCH', json: { status: 'resolved' } })).status, 404);
  t.is((await h.api('/feedback/nonsense', { method: 'PATCH', json: { status: 'resolved' } })).status, 404);
  t.is((await h.api(`/feedback/${id}`, { method: 'PATCH', json: { status: 'done' } })).status, 400);
  t.is((await h.api(`/feedback/${id}`, { method: 'PATCH', json: { status: 'resolved', note: 'x' } })).status, 400);
  const reader = await createAdminKey(h.control, new ManualClock(), { projectId: h.projectId, name: 'r', scope: 'read' });
  t.is((await h.api(`/feedback/${id}`, { method: 'PATCH', json: { status: 'resolved' }, key: reader.key })).status, 403);
  t.is((await h.api(`/feedback/${id}`, { method: 'PATCH', json: { status: 'resolved' } })).status, 200);
  // After a restart the last status record wins.
  await h.close({ keepData: true });
  const again = await startFeedbackHarness({ dataDir: h.dataDir, overrides: big });
  t.teardown(() => again.close());
  t.is(((await (await again.api('/feedback')).json()) as Page).feedback[0].status, 'resolved');
});

test('analytics rate limit: exactly 100 per project per hour across endpoints, the 101st → 429', async (t) => {
  const clock = new ManualClock('2026-03-01T00:00:00.000Z');
  const h = await startFeedbackHarness({ clock });
  t.teardown(() => h.close());
  const paths = ['/feedback', '/feedback/by-page', '/feedback?limit=1'];
  for (let i = 0; i < 100; i++) {
    const res = await h.api(paths[i % 3]);
    t.is(res.status, 200, `request ${i + 1}`);
    if (i === 99) t.regex(res.headers.get('ratelimit') ?? '', /r=0/);
  }
  const limited = await h.api('/feedback/by-page');
  t.is(limited.status, 429);
  t.is(limited.headers.get('retry-after'), '3600');
  t.regex(limited.headers.get('ratelimit-policy') ?? '', /"analytics";q=100;w=3600/);
  t.is(
    (await h.api('/feedback/fb_0000000000000000', { method: 'PATCH', json: { status: 'resolved' } })).status,
    429,
    'PATCH shares the budget',
  );
  clock.advance(60 * 60 * 1000);
  t.is((await h.api('/feedback')).status, 200, 'a new hour, a new budget');
});
