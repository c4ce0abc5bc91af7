import test from 'ava';
import { sameBytes } from '../helpers/sameBytes.js';

// The helper replaces t.deepEqual on big buffers: it must fail wherever deepEqual would.
test('sameBytes passes on equal bytes and fails on a changed byte, a shorter buffer or nothing, naming the offset', async (t) => {
  const want = Buffer.alloc(3 * 1024 * 1024, 7);
  const changed = Buffer.from(want);
  changed[2_000_000] = 8;
  const equal = await t.try((tt) => sameBytes(tt, Buffer.from(want), want));
  const passed = equal.passed;
  equal.commit();
  t.true(passed);
  const cases: [Buffer | null, RegExp][] = [
    [changed, /first difference at byte 2000000/],
    [want.subarray(0, 10), /got 10 bytes, first difference at byte 10, want 3145728 bytes/],
    [null, /got nothing/],
  ];
  for (const [actual, message] of cases) {
    const attempt = await t.try((tt) => sameBytes(tt, actual, want, 'the file'));
    const { passed, errors } = attempt;
    attempt.discard();
    t.false(passed);
    t.regex(errors[0]?.message ?? '', message);
  }
});
