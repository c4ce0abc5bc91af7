import test from 'ava';
import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DayRollup, FOLDED, ROLLUP_CAPS } from '../../src/features/analytics/DayRollup.js';
import { TextInterner } from '../../src/platform/TextInterner.js';

const AT = Date.parse('2026-03-01T10:00:00Z');
/** A visitor id shaped like VisitorSalt's: 16 hex digits of a SHA-256. */
const hex = (i: number) => createHash('sha256').update(String(i)).digest('hex').slice(0, 16);
const view = (path: string, visitor: string) =>
  ({ kind: 'view', at: AT, domain: 'docs.test', version: 'v1', path, ai: false, visitor }) as const;

/** Heap in use after a full collection (gc exposed for this process only). */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

test('visitors cost fixed memory: 300,000 new visitors of one page keep the open day under 2 MB of heap (it kept one key per visitor × page)', (t) => {
  const day = new DayRollup(new TextInterner());
  day.add(view('/', hex(0)));
  const before = heapAfterGc();
  for (let i = 1; i <= 300_000; i++) day.add(view('/', hex(i)));
  const grown = heapAfterGc() - before;
  t.true(grown < 2 * 1024 * 1024, `heap grew ${(grown / 1048576).toFixed(1)} MB`);
  const row = day.visitors.get('docs.test\n/');
  t.true(Math.abs((row?.human ?? 0) - 300_001) / 300_001 < 0.05, `estimate ${row?.human}`);
  t.is(day.views.get('docs.test\nv1\n/')?.human, 300_001, 'views stay exact');
});

test('rows are capped per day: past the cap new queries, pages and clicked paths fold into "(other)" rows', (t) => {
  const day = new DayRollup(new TextInterner());
  const extra = 500;
  for (let i = 0; i < ROLLUP_CAPS.searches + extra; i++)
    day.add({ kind: 'search', at: AT + i, domain: 'docs.test', query: `q${i}`, results: 1 });
  t.is(day.searches.size, ROLLUP_CAPS.searches + 1);
  t.like(day.searches.get(`docs.test\n${FOLDED}`), { query: FOLDED, count: extra });
  day.add({ kind: 'search', at: AT, domain: 'docs.test', query: 'q1', results: 1 });
  t.is(day.searches.get('docs.test\nq1')?.count, 2, 'a query with a row keeps counting there');
  for (let i = 0; i < ROLLUP_CAPS.views + 10; i++) day.add(view(`/p${i}`, hex(i)));
  t.is(day.views.size, ROLLUP_CAPS.views + 1);
  t.is(day.views.get(`docs.test\nv1\n${FOLDED}`)?.human, 10);
  t.true(day.visitors.size <= ROLLUP_CAPS.visitors + 2);
  t.true((day.visitors.get(`docs.test\n${FOLDED}`)?.human ?? 0) > 0);
  for (let i = 0; i < 50; i++) day.add({ kind: 'click', at: AT, domain: 'docs.test', query: 'q2', path: `/p${i}` });
  const clicks = day.searches.get('docs.test\nq2')?.clicks;
  t.is(clicks?.size, ROLLUP_CAPS.clicksPerQuery + 1);
  t.is(clicks?.get(FOLDED), 50 - ROLLUP_CAPS.clicksPerQuery);
});

test('closing a day keeps the most searched queries (the rest fold), turns sketches into counts, and renumbers texts', (t) => {
  const texts = new TextInterner();
  const day = new DayRollup(texts);
  for (let i = 0; i < 3000; i++)
    for (let n = 0; n < (i < 10 ? 5 : 1); n++) day.add({ kind: 'search', at: AT, domain: 'docs.test', query: `q${i}`, results: 1 });
  day.add(view('/', hex(1)));
  day.add(view('/', hex(2)));
  day.close();
  t.false(day.isOpen);
  t.is(day.searches.size, ROLLUP_CAPS.closedSearches);
  t.is(day.searches.get('docs.test\nq3')?.count, 5, 'the busiest stay');
  t.is(day.searches.get(`docs.test\n${FOLDED}`)?.count, 3000 - (ROLLUP_CAPS.closedSearches - 1));
  t.is(
    [...day.searches.values()].reduce((s, r) => s + r.count, 0),
    2990 + 50,
    'no search lost',
  );
  t.deepEqual(day.toJSON(0).visitors, [
    ['docs.test', '/', 2, 0],
    ['docs.test', null, 2, 0],
  ]);
  t.false('sketches' in day.toJSON(0));
  const fresh = new TextInterner();
  day.reintern(fresh);
  t.is(fresh.size, ROLLUP_CAPS.closedSearches + 1, 'only the texts the day still uses');
});

test('an open day survives its checkpoint form with its sketches: the same visitor is not counted twice after it', (t) => {
  const day = new DayRollup(new TextInterner());
  for (let i = 0; i < 100; i++) day.add(view('/', hex(i)));
  const restored = DayRollup.fromJSON(JSON.parse(JSON.stringify(day.toJSON(123))), new TextInterner());
  t.true(restored.isOpen);
  const before = restored.visitors.get('docs.test\n/')?.human;
  restored.add(view('/', hex(5)));
  t.is(restored.visitors.get('docs.test\n/')?.human, before);
  t.is(restored.views.get('docs.test\nv1\n/')?.human, 101);
  const damaged = { ...day.toJSON(123), sketches: [] };
  t.throws(() => DayRollup.fromJSON(damaged, new TextInterner()), { message: /damaged checkpoint/ });
});
