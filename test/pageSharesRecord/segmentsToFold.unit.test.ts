import test from 'ava';
import { MAX_SEGMENTS, segmentsToFold } from '../../src/render/incremental/segmentsToFold.js';

const region = (bytes: number) => Buffer.alloc(bytes);
const kept = (name: string, size: number, used: number[]) => used.map((n) => ({ region: region(n), segment: { name, size } }));

test('few segments with little dead weight are left where they are', (t) => {
  t.deepEqual(segmentsToFold([...kept('base', 1000, [400, 400]), ...kept('edit', 100, [90])], 50), new Set());
});

test('dead bytes past half the live ones fold every segment: the record is written whole again', (t) => {
  // 1,000 + 100 bytes on disk, 500 + 50 + 50 written now live: 550 dead > 300.
  t.deepEqual(segmentsToFold([...kept('base', 1000, [500]), ...kept('edit', 100, [50])], 50), new Set(['base', 'edit']));
});

test('too many segments fold all but the largest', (t) => {
  const small = Array.from({ length: MAX_SEGMENTS }, (_, i) => kept(`edit-${i}`, 10, [10])).flat();
  const folded = segmentsToFold([...kept('base', 10_000, [10_000]), ...small], 10);
  t.is(folded.size, MAX_SEGMENTS);
  t.false(folded.has('base'));
});

test('a record with nothing reused folds nothing', (t) => {
  t.deepEqual(segmentsToFold([], 1000), new Set());
});
