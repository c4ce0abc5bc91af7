import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { ASK_SITE } from './askSite.js';
import { ASK_DOMAIN, startAssistantHarness } from './assistantHarness.js';

test('search and page draw on a budget per key and one per client address: 429 with Retry-After, then a new window', async (t) => {
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const h = await startAssistantHarness(ASK_SITE, {
    clock,
    overrides: { assistant: { searchPerKeyPerMinute: 3, searchPerAddressPerMinute: 5 } },
  });
  t.teardown(() => h.close());
  const made = await h.app.api('/v1/keys', { method: 'POST', json: { name: 'second', kind: 'assistant' } });
  const second = ((await made.json()) as { key: string }).key;
  const call = (key: string, i: number) =>
    i % 2 === 0 ? h.post(`/v1/search/${ASK_DOMAIN}`, { query: 'budget' }, key) : h.post(`/v1/page/${ASK_DOMAIN}`, { path: 'index' }, key);

  for (let i = 0; i < 3; i++) t.is((await call(h.assistantKey, i)).status, 200);
  const overKey = await call(h.assistantKey, 3);
  t.is(overKey.status, 429, "the first key's budget is spent");
  t.is(overKey.headers.get('retry-after'), '60');
  t.regex(overKey.headers.get('ratelimit-policy') ?? '', /assistant-search-key/);

  // The refused call counted against the address (4 so far): one more passes, then the address is spent for every key.
  t.is((await call(second, 0)).status, 200);
  const overAddress = await call(second, 1);
  t.is(overAddress.status, 429);
  t.regex(overAddress.headers.get('ratelimit-policy') ?? '', /assistant-search-address/);

  clock.advance(60_000);
  t.is((await call(h.assistantKey, 0)).status, 200, 'a new window opens after a minute');
});
