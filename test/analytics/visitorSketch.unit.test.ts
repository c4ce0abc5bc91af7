import test from 'ava';
import { createHash } from 'node:crypto';
import { EXACT_VISITORS, VisitorSketch } from '../../src/features/analytics/VisitorSketch.js';

/** The i-th visitor id, shaped like VisitorSalt's (16 hex digits of a SHA-256). */
const id = (i: number, seed = 'a') => createHash('sha256').update(`${seed}${i}`).digest('hex').slice(0, 16);

test('exact while few: up to EXACT_VISITORS distinct ids are counted exactly, repeats once', (t) => {
  const sketch = new VisitorSketch();
  t.is(sketch.count(), 0);
  for (let i = 0; i < EXACT_VISITORS; i++) {
    sketch.add(id(i));
    sketch.add(id(i));
    t.is(sketch.count(), i + 1);
  }
  t.deepEqual(Object.keys(sketch.toJSON()), ['ids']);
});

test('the estimate stays within 3 standard errors (4.8 %) from 100 to 200,000 visitors, in 4 KiB whatever the count', (t) => {
  for (const n of [100, 1_000, 10_000, 200_000]) {
    for (const seed of ['a', 'b']) {
      const sketch = new VisitorSketch();
      for (let i = 0; i < n; i++) sketch.add(id(i, seed));
      for (let i = 0; i < n; i += 7) sketch.add(id(i, seed)); // repeats change nothing
      const error = Math.abs(sketch.count() - n) / n;
      t.true(error < 0.048, `${n} (${seed}): estimated ${sketch.count()}, error ${(error * 100).toFixed(2)} %`);
      const json = sketch.toJSON();
      t.true('registers' in json && Buffer.from(json.registers, 'base64').length === 4096, `${n}: fixed size`);
    }
  }
});

test('a sketch survives its persisted form; damaged forms are refused; ids that are not hex are hashed', (t) => {
  for (const n of [10, 5_000]) {
    const sketch = new VisitorSketch();
    for (let i = 0; i < n; i++) sketch.add(id(i));
    const restored = VisitorSketch.fromJSON(JSON.parse(JSON.stringify(sketch.toJSON())));
    t.is(restored?.count(), sketch.count());
    restored?.add(id(n + 1));
    t.true((restored?.count() ?? 0) >= sketch.count());
  }
  for (const bad of [null, 3, {}, { registers: 'AAAA' }, { ids: [1, 2] }, { ids: Array.from({ length: 65 }, (_, i) => id(i)) }])
    t.is(VisitorSketch.fromJSON(bad), null, JSON.stringify(bad)?.slice(0, 40));
  const odd = new VisitorSketch();
  for (let i = 0; i < 1000; i++) odd.add(`visitor-${i}`);
  t.true(Math.abs(odd.count() - 1000) < 48);
  // Hex ids that vary in their low digits only (made by counting) still spread over the registers.
  const counted = new VisitorSketch();
  for (let i = 0; i < 50_000; i++) counted.add(i.toString(16).padStart(16, '0'));
  t.true(Math.abs(counted.count() - 50_000) / 50_000 < 0.048, `counted ids: ${counted.count()}`);
});
