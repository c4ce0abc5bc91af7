import test from 'ava';
import { FeedbackIndex, type IndexFilter, type IndexRow } from '../../src/features/feedback/log/FeedbackIndex.js';

// The index answers by-page counts from checkpoints and skips blocks by facet masks; these
// tests hold both to a brute-force scan of the same rows, across checkpoint (65,536 rows) and
// block (256 rows) boundaries, through bulk load, appends, out-of-order inserts, status
// changes and retention.

const PATHS = ['/', '/a', '/b', '/c', '/d'];
const CODE = 1;
/** Only contextual ratings are thumbs (issue 31: the hosted schema). */
const CONTEXTUAL = 0;
const SOURCES = { rating: CONTEXTUAL, code: CODE };

/** Deterministic pseudo-random numbers, so a failure replays. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Model {
  rows: IndexRow[];
}

function makeRow(index: FeedbackIndex, next: () => number, createdAt: number, seq: number): IndexRow {
  const source = Math.floor(next() * 4);
  const helpful = source === 0 || source === 2 ? (next() < 0.6 ? 1 : 0) : -1;
  return {
    createdAt,
    idHi: Math.floor(next() * 2 ** 32),
    idLo: seq,
    segment: Math.floor(createdAt / 1000) % 7,
    offset: seq * 100,
    length: 100,
    source,
    status: next() < 0.9 ? 0 : 1 + Math.floor(next() * 3),
    helpful,
    path: index.pathId(PATHS[Math.floor(next() * PATHS.length)]),
  };
}

const key = (r: IndexRow) => [r.createdAt, r.idHi, r.idLo] as const;
const compare = (a: IndexRow, b: IndexRow) => a.createdAt - b.createdAt || a.idHi - b.idHi || a.idLo - b.idLo;

function matches(r: IndexRow, f: IndexFilter): boolean {
  return (
    (f.fromMs === undefined || r.createdAt >= f.fromMs) &&
    (f.toMs === undefined || r.createdAt < f.toMs) &&
    (f.source === undefined || r.source === f.source) &&
    (f.statusMask === undefined || ((1 << r.status) & f.statusMask) !== 0)
  );
}

function bruteCounts(index: FeedbackIndex, model: Model, f: IndexFilter): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const r of model.rows) {
    if (!matches(r, f)) continue;
    const c = (out[index.pathOf(r.path)] ??= [0, 0, 0, 0]);
    c[0]++;
    if (r.helpful === 1 && r.source === CONTEXTUAL) c[1]++;
    if (r.helpful === 0 && r.source === CONTEXTUAL) c[2]++;
    if (r.source === CODE) c[3]++;
  }
  return out;
}

function indexCounts(index: FeedbackIndex, f: IndexFilter): Record<string, number[]> {
  const c = index.countByPath(f, SOURCES);
  const out: Record<string, number[]> = {};
  for (let p = 0; p < c.total.length; p++)
    if (c.total[p] > 0) out[index.pathOf(p)] = [c.total[p], c.helpful[p], c.notHelpful[p], c.code[p]];
  return out;
}

function filters(next: () => number, span: number): IndexFilter[] {
  const out: IndexFilter[] = [{}, { source: CODE }, { statusMask: 0b1110 }, { source: 3, statusMask: 0b0100 }];
  for (let i = 0; i < 12; i++) {
    const a = Math.floor(next() * span);
    const b = a + Math.floor(next() * span * (i < 6 ? 0.05 : 0.6));
    out.push({
      fromMs: a,
      toMs: b,
      ...(i % 3 === 1 ? { source: Math.floor(next() * 4) } : {}),
      ...(i % 3 === 2 ? { statusMask: 1 + Math.floor(next() * 15) } : {}),
    });
  }
  return out;
}

function check(
  t: import('ava').ExecutionContext,
  index: FeedbackIndex,
  model: Model,
  next: () => number,
  span: number,
  label: string,
): void {
  model.rows.sort(compare);
  t.is(index.size, model.rows.length, `${label}: size`);
  for (const f of filters(next, span)) {
    t.deepEqual(indexCounts(index, f), bruteCounts(index, model, f), `${label}: counts ${JSON.stringify(f)}`);
    const wanted = model.rows.filter((r) => matches(r, f)).reverse();
    const before = wanted.length > 40 ? wanted[17] : null;
    const expected = (before ? wanted.slice(18) : wanted).slice(0, 30).map(key);
    const got = index.select(f, before && { createdAt: before.createdAt, idHi: before.idHi, idLo: before.idLo }, 30).map(key);
    t.deepEqual(got, expected, `${label}: select ${JSON.stringify(f)}`);
  }
}

test('per-page counts and filtered pages match a full scan through loads, inserts, status changes and retention', (t) => {
  const next = random(42);
  const index = new FeedbackIndex();
  const model: Model = { rows: [] };
  const span = 300_000;
  // Bulk load slightly out of order, as several segments would be.
  for (let i = 0; i < 150_000; i++) {
    const row = makeRow(index, next, Math.floor((i / 150_000) * span * 0.8 + next() * 50), i);
    index.push(row);
    model.rows.push(row);
  }
  index.sort();
  check(t, index, model, next, span, 'after load');

  let seq = 1_000_000;
  for (let i = 0; i < 70_000; i++) {
    // Mostly appends past the end, sometimes a clock that stepped back.
    const late = i % 400 === 0;
    const createdAt = late ? Math.floor(next() * span * 0.8) : Math.floor(span * 0.8 + (i / 70_000) * span * 0.2);
    const row = makeRow(index, next, createdAt, seq++);
    index.insert(row);
    model.rows.push(row);
  }
  check(t, index, model, next, span, 'after inserts');

  for (let i = 0; i < 2_000; i++) {
    const r = model.rows[Math.floor(next() * model.rows.length)];
    const status = Math.floor(next() * 4);
    index.setStatus(index.find(r.idHi, r.idLo), status);
    r.status = status;
  }
  check(t, index, model, next, span, 'after status changes');

  t.is(index.removeSegments(new Set([2, 5])), model.rows.filter((r) => r.segment === 2 || r.segment === 5).length);
  model.rows = model.rows.filter((r) => r.segment !== 2 && r.segment !== 5);
  check(t, index, model, next, span, 'after retention');

  for (let i = 0; i < 500; i++) {
    const row = makeRow(index, next, span + i, seq++);
    index.insert(row);
    model.rows.push(row);
  }
  check(t, index, model, next, span + 500, 'appends after retention');
});

test('a page first seen after load grows the counts without losing the others', (t) => {
  const index = new FeedbackIndex();
  const row = (path: string, createdAt: number): IndexRow => ({
    createdAt,
    idHi: 1,
    idLo: createdAt,
    segment: 0,
    offset: 0,
    length: 1,
    source: 0,
    status: 0,
    helpful: 1,
    path: index.pathId(path),
  });
  for (let i = 0; i < 40; i++) index.insert(row(`/page-${i}`, i));
  const counts = index.countByPath({}, SOURCES);
  t.deepEqual([...counts.total.subarray(0, 40)], Array(40).fill(1));
  t.deepEqual([...counts.helpful.subarray(0, 40)], Array(40).fill(1));
  t.true(
    counts.total.subarray(40).every((n) => n === 0),
    'room for more pages counts nothing',
  );
});

test('a rare source and status is found wherever inserts and status changes moved it among blocks', (t) => {
  const index = new FeedbackIndex();
  const path = index.pathId('/');
  const row = (createdAt: number, idLo: number, source = 0, status = 0): IndexRow => ({
    createdAt,
    idHi: 0,
    idLo,
    segment: 0,
    offset: 0,
    length: 1,
    source,
    status,
    helpful: 1,
    path,
  });
  for (let i = 0; i < 5_000; i++) index.insert(row(i * 10, i));
  // Rare rows inserted in the middle are then shifted across block starts by later inserts.
  const rare = [2_555, 7_675, 12_795, 40_005];
  for (const [k, createdAt] of rare.entries()) index.insert(row(createdAt, 100_000 + k, 3, 2));
  for (let i = 0; i < 300; i++) index.insert(row(5 + i * 10, 200_000 + i));
  const resolvedAgent = { source: 3, statusMask: 1 << 2 };
  t.deepEqual(
    index.select(resolvedAgent, null, 10).map((r) => r.createdAt),
    [...rare].reverse(),
  );
  // A status change marks the row's block as well.
  index.setStatus(index.find(0, 4_321), 2);
  t.deepEqual(
    index
      .select({ statusMask: 1 << 2 }, null, 10)
      .map((r) => r.createdAt)
      .sort((a, b) => a - b),
    [...rare, 43_210].sort((a, b) => a - b),
  );
});
