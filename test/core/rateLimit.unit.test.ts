import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { RateLimiter } from '../../src/http/RateLimiter.js';

test('exactly `limit` requests pass per window; the next gets the seconds until reset', (t) => {
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const limiter = new RateLimiter('analytics', 100, 3_600_000, clock);
  for (let i = 0; i < 100; i++) t.true(limiter.consume('proj_a').allowed, `request ${i + 1}`);
  const refused = limiter.consume('proj_a');
  t.false(refused.allowed);
  t.is(refused.remaining, 0);
  t.is(refused.resetSeconds, 3600);
  t.true(limiter.consume('proj_b').allowed, 'limits are per key');
  clock.advance(3_599_000);
  t.false(limiter.consume('proj_a').allowed);
  t.is(limiter.consume('proj_a').resetSeconds, 1);
  clock.advance(1_000);
  const fresh = limiter.consume('proj_a');
  t.true(fresh.allowed);
  t.is(fresh.remaining, 99);
});

test('a clock that jumps backwards starts a new window instead of locking the caller out', (t) => {
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const limiter = new RateLimiter('p', 2, 60_000, clock);
  limiter.consume('k');
  limiter.consume('k');
  t.false(limiter.consume('k').allowed);
  clock.advance(-3_600_000);
  const after = limiter.consume('k');
  t.true(after.allowed);
  t.true(after.resetSeconds <= 60);
});

test('windows of many keys are swept so memory stays bounded', (t) => {
  const clock = new ManualClock();
  const limiter = new RateLimiter('p', 1, 1000, clock);
  for (let i = 0; i < 10_001; i++) limiter.consume(`ip${i}`);
  clock.advance(2000);
  limiter.consume('late-0');
  for (let i = 0; i < 10_001; i++) limiter.consume(`next${i}`);
  t.true((limiter as unknown as { windows: Map<string, unknown> }).windows.size <= 10_003);
});
