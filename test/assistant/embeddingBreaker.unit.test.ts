import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { EmbeddingBreaker } from '../../src/features/assistant/retrieval/vectors/EmbeddingBreaker.js';

const backoff = { firstMs: 1000, maxMs: 5000 };

test('closed, every request goes; a failure opens it for the first back-off, then one probe at a time', (t) => {
  const clock = new ManualClock();
  const breaker = new EmbeddingBreaker(clock, backoff);
  t.is(breaker.tryAcquire(), 'closed');
  t.is(breaker.tryAcquire(), 'closed', 'no limit while healthy');
  t.like(breaker.readiness(), { status: 'ok', embeddings: 'closed' });

  breaker.failed('closed', 'embeddings endpoint answered 503');
  t.is(breaker.tryAcquire(), null);
  t.like(breaker.readiness(), { status: 'degraded', embeddings: 'open', failures: 1, retryAt: '2026-01-01T00:00:01.000Z' });
  t.regex(String(breaker.readiness().detail), /answered 503.*keywords only/);
  clock.advance(999);
  t.false(breaker.wouldAdmit());
  t.is(breaker.tryAcquire(), null, 'still inside the back-off');
  clock.advance(1);
  t.true(breaker.wouldAdmit());
  t.is(breaker.tryAcquire(), 'probe');
  t.is(breaker.tryAcquire(), null, 'one probe at a time');
  t.false(breaker.wouldAdmit());
  t.like(breaker.readiness(), { embeddings: 'probing' });
  clock.advance(60_000);
  t.is(breaker.tryAcquire(), null, 'however long the probe takes, no second one');
});

test('each failed probe doubles the back-off up to the cap; a success closes it', (t) => {
  const clock = new ManualClock();
  const breaker = new EmbeddingBreaker(clock, backoff);
  breaker.failed('closed', 'down');
  const waits: number[] = [];
  for (let i = 0; i < 5; i++) {
    let waited = 0;
    while (!breaker.wouldAdmit()) {
      clock.advance(250);
      waited += 250;
    }
    waits.push(waited);
    const ticket = breaker.tryAcquire();
    t.is(ticket, 'probe');
    breaker.failed(ticket!, 'still down');
  }
  t.deepEqual(waits, [1000, 2000, 4000, 5000, 5000]);
  t.like(breaker.readiness(), { failures: 6 });
  clock.advance(5000);
  const probe = breaker.tryAcquire();
  t.true(breaker.succeeded(probe!), 'it was open');
  t.is(breaker.tryAcquire(), 'closed');
  t.like(breaker.readiness(), { status: 'ok' });
  breaker.failed('closed', 'down again');
  clock.advance(999);
  t.false(breaker.wouldAdmit(), 'after a recovery the back-off starts from the first again');
  clock.advance(1);
  t.true(breaker.wouldAdmit());
});

test('requests already in flight when it opened neither lengthen the back-off nor take the probe', (t) => {
  const clock = new ManualClock();
  const breaker = new EmbeddingBreaker(clock, backoff);
  const a = breaker.tryAcquire()!;
  const b = breaker.tryAcquire()!;
  breaker.failed(a, 'stalled');
  clock.advance(500);
  breaker.failed(b, 'stalled');
  t.like(breaker.readiness(), { failures: 1, retryAt: '2026-01-01T00:00:01.000Z' });
  clock.advance(500);
  const probe = breaker.tryAcquire();
  t.is(probe, 'probe');
  const late = breaker.tryAcquire();
  t.is(late, null, 'the probe is out');
  t.true(breaker.succeeded('closed'), 'a late answer to a request from before it opened shows the endpoint is back');
  t.is(breaker.tryAcquire(), 'closed');
  breaker.succeeded(probe!);
  t.like(breaker.readiness(), { status: 'ok' });
});
