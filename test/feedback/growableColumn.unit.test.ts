import test from 'ava';
import { FeedbackIndex } from '../../src/features/feedback/log/FeedbackIndex.js';
import { growableColumn, growColumn, MAX_COLUMN_ROWS } from '../../src/features/feedback/log/growableColumn.js';

test('a column grows in place: same array, old values kept, new rows zero; past the maximum it refuses', (t) => {
  const column = growableColumn(Float64Array, 4);
  column.set([1.5, 2.5, 3.5, 4.5]);
  growColumn(column, 1000);
  t.is(column.length, 1000);
  t.deepEqual([...column.subarray(0, 5)], [1.5, 2.5, 3.5, 4.5, 0]);
  t.is(column[999], 0);
  t.throws(() => growColumn(column, MAX_COLUMN_ROWS + 1), { message: /cannot hold more than/ });
});

test('an index that starts tiny keeps every row and its order through many in-place growths', (t) => {
  const index = new FeedbackIndex(2);
  const row = (i: number, createdAt: number) => ({
    createdAt,
    idHi: i,
    idLo: i * 7,
    segment: i % 3,
    offset: i * 300.5,
    length: 100 + i,
    source: i % 4,
    status: i % 4,
    helpful: (i % 3) - 1,
    path: index.pathId(`/p${i % 5}`),
  });
  for (let i = 0; i < 3000; i++) index.push(row(i, 1_000_000 - i)); // loaded newest first: sort() must reorder
  index.sort();
  for (let i = 3000; i < 5000; i++) index.insert(row(i, i % 2 ? 2_000_000 + i : 500_000 + i)); // appends and inserts
  t.is(index.size, 5000);
  const rows = index.select({}, null, 10_000);
  t.is(rows.length, 5000);
  for (let k = 1; k < rows.length; k++)
    t.true(
      rows[k - 1].createdAt > rows[k].createdAt || (rows[k - 1].createdAt === rows[k].createdAt && rows[k - 1].idHi > rows[k].idHi),
      `row ${k} out of order`,
    );
  const byId = new Map(rows.map((r) => [r.idHi, r]));
  for (const i of [0, 1, 2999, 3000, 4001, 4999]) {
    const r = byId.get(i)!;
    t.like(r, { idLo: i * 7, segment: i % 3, offset: i * 300.5, length: 100 + i, source: i % 4, status: i % 4, helpful: (i % 3) - 1 });
    t.is(index.pathOf(r.path), `/p${i % 5}`);
  }
});
