import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { RateLimiter } from '../../src/http/RateLimiter.js';

test('a limiter keyed by address keeps at most 10,000 keys within one window (70,000 addresses in a minute), forgetting the oldest', (t) => {
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const limiter = new RateLimiter('per-address', 2, 60_000, clock);
  let peak = 0;
  for (let i = 0; i < 70_000; i++) {
    limiter.consume(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    peak = Math.max(peak, limiter.size);
  }
  t.true(peak <= 10_001, `peak ${peak} keys`);
  const last = '10.1.17.111'; // the 70,000th address, consumed once above
  t.true(limiter.consume(last).allowed);
  t.false(limiter.consume(last).allowed, 'a recent address keeps its window and is still limited');
});
