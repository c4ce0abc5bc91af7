import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { loadConfig } from '../../src/config/loadConfig.js';
import { startFeedbackHarness } from '../feedback/feedbackHarness.js';

// Issue 20 item 6: one address was the only limit, so a flood over many addresses filled the
// disk. Each limit below fails on the code before it (posts were all accepted).

const rating = (path = '/') => ({ source: 'contextual', path, helpful: true });
const open = { perClientPerMinute: 100_000, perPagePerMinute: 100_000, globalPerMinute: 100_000 };

test('global feedback rate: past feedback.globalPerMinute from all clients → 429 with Retry-After, a new minute accepts again', async (t) => {
  const clock = new ManualClock('2026-03-01T00:00:00.000Z');
  const h = await startFeedbackHarness({ clock, overrides: { feedback: { ...open, globalPerMinute: 3 } } });
  t.teardown(() => h.close());
  for (let i = 0; i < 3; i++) t.is((await h.post(rating(['/', '/guides/start', '/reference/api'][i]))).status, 201);
  const refused = await h.post(rating('/reference/api'));
  t.is(refused.status, 429);
  t.is(refused.headers.get('retry-after'), '60');
  t.regex(((await refused.json()) as { error: string }).error, /all clients/);
  t.is(h.module.log.count(h.projectId), 3, 'the refused post was not stored');
  clock.advance(60_000);
  t.is((await h.post(rating())).status, 201);
});

test('per-page feedback rate: past feedback.perPagePerMinute for one page → 429, other pages still accepted', async (t) => {
  const clock = new ManualClock('2026-03-01T00:00:00.000Z');
  const h = await startFeedbackHarness({ clock, overrides: { feedback: { ...open, perPagePerMinute: 2 } } });
  t.teardown(() => h.close());
  t.is((await h.post(rating('/'))).status, 201);
  t.is((await h.post(rating('/'))).status, 201);
  const refused = await h.post(rating('/'));
  t.is(refused.status, 429);
  t.regex(((await refused.json()) as { error: string }).error, /for \//);
  t.is((await h.post(rating('/guides/start'))).status, 201);
  t.is(h.module.log.count(h.projectId), 3);
});

test('free-space floor: below limits.minFreeBytes feedback is refused with 507 and nothing is written', async (t) => {
  const h = await startFeedbackHarness({ overrides: { feedback: open, limits: { minFreeBytes: Number.MAX_SAFE_INTEGER } } });
  t.teardown(() => h.close());
  const res = await h.post(rating());
  t.is(res.status, 507);
  t.regex(((await res.json()) as { error: string }).error, /nearly full/);
  t.is(h.module.log.count(h.projectId), 0);
});

test('feedback retention is on by default (365 days) and drops what is older', async (t) => {
  const defaults = loadConfig({ env: {} });
  t.is(defaults.feedback.retentionDays, 365);
  t.is(defaults.limits.minFreeBytes, 256 * 1024 * 1024);
  const h = await startFeedbackHarness({ overrides: { feedback: open } });
  t.teardown(() => h.close());
  await h.module.log.append(h.projectId, { source: 'contextual', path: '/', helpful: true }, new Date('2025-01-15T00:00:00Z'));
  await h.module.log.append(h.projectId, { source: 'contextual', path: '/', helpful: false }, new Date('2026-02-15T00:00:00Z'));
  const removed = await h.module.applyRetention(new Date('2026-03-01T00:00:00Z'));
  t.is(removed.length, 1);
  t.is(h.module.log.count(h.projectId), 1);
});
