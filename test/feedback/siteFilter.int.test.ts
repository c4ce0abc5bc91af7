import test from 'ava';
import { runEnclave } from '../helpers/runEnclave.js';
import { startFeedbackHarness, type FeedbackHarness } from './feedbackHarness.js';

// Issue 33 item 2: the dashboard's site switcher needs feedback of one site; `domain` is an
// added, optional filter (without it every site of the project is listed, as before).

async function postOn(h: FeedbackHarness, domain: string, count: number, path: string): Promise<void> {
  h.site.live = { ...h.site.live!, domain };
  for (let i = 0; i < count; i++) {
    const res = await h.post({ source: 'thumbs_only', path, helpful: i % 2 === 0 });
    if (res.status !== 201 && res.status !== 200) throw new Error(`post → ${res.status} ${await res.text()}`);
  }
}

type Listing = { feedback: { domain: string | null; path: string }[]; nextCursor: string | null };

async function json<T>(res: Response): Promise<T> {
  if (res.status !== 200) throw new Error(`${res.url} → ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

test('feedback lists, counts per day and per page for one site, after a restart too, and the CSV has a domain column', async (t) => {
  const first = await startFeedbackHarness();
  await postOn(first, 'docs.test', 3, '/guides/start');
  await postOn(first, 'b.test', 2, '/reference/api');
  await first.close({ keepData: true });
  // Reopened: the filter works on entries loaded from disk as well as on new ones.
  const h = await startFeedbackHarness({ dataDir: first.dataDir });
  t.teardown(() => h.close());
  await postOn(h, 'b.test', 1, '/');

  const all = await json<Listing>(await h.api('/feedback?limit=100'));
  t.is(all.feedback.length, 6);
  const b = await json<Listing>(await h.api('/feedback?limit=100&domain=b.test'));
  t.deepEqual(
    b.feedback.map((e) => e.domain),
    ['b.test', 'b.test', 'b.test'],
  );
  const docs = await json<Listing>(await h.api('/feedback?limit=100&domain=DOCS.test'));
  t.is(docs.feedback.length, 3);
  t.true(docs.feedback.every((e) => e.domain === 'docs.test'));
  t.deepEqual((await json<Listing>(await h.api('/feedback?domain=none.test'))).feedback, []);

  // Paging keeps to the site, and a cursor can't be replayed on another site.
  const page1 = await json<Listing>(await h.api('/feedback?limit=2&domain=b.test'));
  t.is(page1.feedback.length, 2);
  const page2 = await json<Listing>(await h.api(`/feedback?limit=2&domain=b.test&cursor=${page1.nextCursor}`));
  t.deepEqual(
    page2.feedback.map((e) => e.domain),
    ['b.test'],
  );
  t.is((await h.api(`/feedback?limit=2&domain=docs.test&cursor=${page1.nextCursor}`)).status, 400);

  const byDay = await json<{ days: { total: number }[] }>(await h.api('/feedback/by-day?domain=b.test'));
  t.is(
    byDay.days.reduce((n, d) => n + d.total, 0),
    3,
  );
  const byPage = await json<{ feedback: { path: string; total: number }[] }>(await h.api('/feedback/by-page?domain=b.test'));
  t.deepEqual(byPage.feedback.map((p) => [p.path, p.total]).sort(), [
    ['/', 1],
    ['/reference/api', 2],
  ]);
  const byPageAll = await json<{ feedback: { path: string; total: number }[] }>(await h.api('/feedback/by-page'));
  t.is(
    byPageAll.feedback.reduce((n, p) => n + p.total, 0),
    6,
  );

  const env = { ENCLAVE_URL: h.url, ENCLAVE_ADMIN_KEY: h.key, ENCLAVE_PROJECT_ID: h.projectId };
  const csv = await runEnclave(['feedback', 'export', '--format', 'csv', '--domain', 'b.test'], env);
  t.is(csv.code, 0, csv.stderr);
  const rows = csv.stdout.trim().split('\r\n');
  t.is(rows[0].split(',').at(-1), 'domain');
  t.is(rows.length, 4);
  t.true(rows.slice(1).every((r) => r.endsWith(',b.test')));
});
