import test from 'ava';
import type { FeedbackSubmission } from '../../src/features/feedback/FeedbackEntry.js';
import { startFeedbackHarness } from '../feedback/feedbackHarness.js';

const contextual = (helpful: boolean): FeedbackSubmission => ({ source: 'contextual', path: '/', helpful });

test('query strings as the hosted API reads them: empty is absent, 10.0 is ten, no offset is UTC, unknown names still 400', async (t) => {
  const h = await startFeedbackHarness({ overrides: { analytics: { requestsPerHour: 10_000 } } });
  t.teardown(() => h.close());
  const at = ['2026-03-01T09:59:59.999Z', '2026-03-01T10:00:00.000Z', '2026-03-01T11:00:00.000Z'];
  const ids: string[] = [];
  for (const when of at) ids.push((await h.module.log.append(h.projectId, contextual(true), new Date(when))).id);
  const listed = async (query: string) => {
    const res = await h.api(`/feedback${query}`);
    t.is(res.status, 200, query);
    return ((await res.json()) as { feedback: { id: string }[] }).feedback.map((e) => ids.indexOf(e.id));
  };

  t.deepEqual(await listed('?limit=&source=&status=&dateFrom=&dateTo=&cursor='), [2, 1, 0], 'every empty value is as if absent');
  t.deepEqual(await listed('?limit=2.0'), [2, 1], 'a whole number written as a decimal');
  // Without an offset the time is UTC, whatever zone the server runs in.
  t.deepEqual(await listed('?dateFrom=2026-03-01T10:00:00'), [2, 1]);
  t.deepEqual(await listed('?dateFrom=2026-03-01T10:00:00&dateTo=2026-03-01T10:30'), [1]);

  const bad = await h.api('/feedback?limit=2.5&colour=&sort=new');
  t.is(bad.status, 400);
  const messages = ((await bad.json()) as { details: { message: string }[] }).details.map((d) => d.message).join('\n');
  t.regex(messages, /query\.limit/);
  t.regex(messages, /colour/, 'an unknown parameter is named even when empty');
  t.regex(messages, /sort/);
});

test('the Bearer scheme is case-insensitive (RFC 9110); other schemes and a missing token stay 401', async (t) => {
  const h = await startFeedbackHarness();
  t.teardown(() => h.close());
  const url = `${h.url}/v1/analytics/${h.projectId}/feedback`;
  for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR'])
    t.is((await fetch(url, { headers: { Authorization: `${scheme} ${h.key}` } })).status, 200, scheme);
  t.is((await fetch(url, { headers: { Authorization: `Bearer  ${h.key}` } })).status, 200, 'more than one space after the scheme');
  for (const header of [`Token ${h.key}`, 'Bearer', `Bearer${h.key}`, `Bearer ${h.key} extra`]) {
    const res = await fetch(url, { headers: { Authorization: header } });
    t.is(res.status, 401, header);
    t.is(res.headers.get('www-authenticate'), 'Bearer');
  }
});
