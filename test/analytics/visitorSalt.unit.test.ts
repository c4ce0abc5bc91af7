import test from 'ava';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ManualClock } from '../../src/platform/Clock.js';
import { VisitorSalt } from '../../src/features/analytics/VisitorSalt.js';
import { classifyClient } from '../../src/features/analytics/classifyClient.js';

/** Heap in use after a full collection (gc exposed for this process only). */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

test('ids: the same reader is one id within a day, another the next day; each salt is new (a restart is a new salt)', (t) => {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const salt = new VisitorSalt(clock);
  const id = salt.visitorOf('10.0.0.1', 'Mozilla/5.0 A');
  t.regex(id, /^[0-9a-f]{16}$/);
  t.is(salt.visitorOf('10.0.0.1', 'Mozilla/5.0 A'), id);
  t.not(salt.visitorOf('10.0.0.1', 'Mozilla/5.0 B'), id);
  t.not(new VisitorSalt(clock).visitorOf('10.0.0.1', 'Mozilla/5.0 A'), id, 'another instance (a restart) hashes differently');
  clock.advance(24 * 3_600_000);
  t.not(salt.visitorOf('10.0.0.1', 'Mozilla/5.0 A'), id, 'the next day hashes differently');
});

test('a client inventing an 8 KB User-Agent per request: 20,000 of them leave under 16 MB in the caches of visitor ids and client classes', (t) => {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const salt = new VisitorSalt(clock);
  const pad = Buffer.alloc(8 * 1024, 'x');
  const before = heapAfterGc();
  for (let i = 0; i < 20_000; i++) {
    // A flat string of its own, as the HTTP parser makes (a template would share `pad`).
    const ua = Buffer.concat([Buffer.from(`Mozilla/5.0 ${i} `), pad]).toString('latin1');
    classifyClient(ua, false);
    salt.visitorOf('10.0.0.1', ua);
  }
  const grown = heapAfterGc() - before;
  t.true(grown < 16 * 1024 * 1024, `heap grew ${(grown / 1048576).toFixed(1)} MB`);
  // Used after the measurement, so the collector can't take the salt (and its cache) early.
  t.regex(salt.visitorOf('10.0.0.1', 'Mozilla/5.0'), /^[0-9a-f]{16}$/);
});
