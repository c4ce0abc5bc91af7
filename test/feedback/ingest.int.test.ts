import test from 'ava';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ManualClock } from '../../src/platform/Clock.js';
import { startFeedbackHarness } from './feedbackHarness.js';

const messages = async (res: Response): Promise<string[]> =>
  ((await res.json()) as { details?: { message: string }[] }).details?.map((d) => d.message) ?? [];

test('each source: accepted with its fields, 201 {id}, and stored durably before the answer', async (t) => {
  const h = await startFeedbackHarness();
  t.teardown(() => h.close());
  const bodies = [
    { source: 'contextual', path: '/guides/start', helpful: false, comment: 'Step 3 is unclear', contact: 'reader@example.com' },
    {
      source: 'code_snippet',
      path: '/reference/api',
      code: 'npm i enclave',
      filename: 'install.sh',
      lang: 'bash',
      comment: 'fails on windows',
    },
    { source: 'thumbs_only', path: '/', helpful: true },
    { source: 'agent', path: '/', comment: 'the agent found a broken link' },
  ];
  for (const body of bodies) {
    const res = await h.post(body);
    t.is(res.status, 201, body.source);
    const { id } = (await res.json()) as { id: string };
    t.regex(id, /^fb_[0-9a-f]{16}$/);
    // The 201 came after the fsync: the line is in the segment file now.
    const month = new Date().toISOString().slice(0, 7);
    const text = await readFile(join(h.dataDir, 'feedback', h.projectId, `${month}.jsonl`), 'utf8');
    t.true(text.includes(id));
  }
});

test('every problem in a submission is listed at once', async (t) => {
  const h = await startFeedbackHarness();
  t.teardown(() => h.close());
  const res = await h.post({
    source: 'contextual',
    path: 'no-slash',
    helpful: 'yes',
    comment: 'x'.repeat(5001),
    contact: 'not-an-email',
    surprise: 1,
  });
  t.is(res.status, 400);
  const details = await messages(res);
  for (const fragment of ['body.path', 'body.helpful', 'body.comment', 'body.contact', 'surprise']) {
    t.true(
      details.some((m) => m.includes(fragment)),
      `${fragment} reported in ${JSON.stringify(details)}`,
    );
  }
});

test('field rules per source: required fields, fields a source does not take, lengths, e-mail', async (t) => {
  const h = await startFeedbackHarness();
  t.teardown(() => h.close());
  const cases: [string, unknown, string][] = [
    ['contextual without helpful', { source: 'contextual', path: '/' }, 'body.helpful: required when source is contextual'],
    ['thumbs_only without helpful', { source: 'thumbs_only', path: '/' }, 'body.helpful: required when source is thumbs_only'],
    ['code_snippet without code', { source: 'code_snippet', path: '/' }, 'body.code: required when source is code_snippet'],
    ['code_snippet with empty code', { source: 'code_snippet', path: '/', code: '' }, 'body.code'],
    [
      'thumbs_only with a comment',
      { source: 'thumbs_only', path: '/', helpful: true, comment: 'x' },
      'body.comment: not accepted when source is thumbs_only',
    ],
    [
      'contextual with code',
      { source: 'contextual', path: '/', helpful: true, code: 'x' },
      'body.code: not accepted when source is contextual',
    ],
    ['code_snippet with contact', { source: 'code_snippet', path: '/', code: 'x', contact: 'a@b.co' }, 'body.contact: not accepted'],
    ['unknown source', { source: 'email', path: '/' }, 'body.source'],
    ['missing source', { path: '/' }, 'body.source'],
    ['missing path', { source: 'thumbs_only', helpful: true }, 'body.path'],
    ['path not on the site', { source: 'thumbs_only', path: '/nope', helpful: true }, 'body.path: not a page of the live site'],
    ['path too long', { source: 'thumbs_only', path: `/${'a'.repeat(2048)}`, helpful: true }, 'body.path'],
    ['bad e-mail', { source: 'contextual', path: '/', helpful: true, contact: 'a@b' }, 'body.contact: must be an e-mail address'],
    ['e-mail too long', { source: 'contextual', path: '/', helpful: true, contact: `${'a'.repeat(250)}@b.co` }, 'body.contact'],
    ['filename too long', { source: 'code_snippet', path: '/', code: 'x', filename: 'f'.repeat(256) }, 'body.filename'],
    ['lang too long', { source: 'code_snippet', path: '/', code: 'x', lang: 'l'.repeat(65) }, 'body.lang'],
    ['helpful as number', { source: 'thumbs_only', path: '/', helpful: 1 }, 'body.helpful'],
    ['comment as object', { source: 'agent', path: '/', comment: { a: 1 } }, 'body.comment'],
  ];
  for (const [label, body, expected] of cases) {
    const res = await h.post(body);
    t.is(res.status, 400, label);
    const details = await messages(res);
    t.true(
      details.some((m) => m.includes(expected)),
      `${label}: ${JSON.stringify(details)}`,
    );
  }
  // Limits are inclusive.
  t.is((await h.post({ source: 'contextual', path: '/', helpful: true, comment: 'x'.repeat(5000) })).status, 201);
});

test('body over 16 KiB → 413; not JSON → 415; malformed JSON → 400', async (t) => {
  const h = await startFeedbackHarness();
  t.teardown(() => h.close());
  const big = await h.post({ source: 'code_snippet', path: '/', code: 'x'.repeat(17 * 1024) });
  t.is(big.status, 413);
  const form = await fetch(`${h.url}/_enclave/feedback`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'hi' });
  t.is(form.status, 415);
  const broken = await fetch(`${h.url}/_enclave/feedback`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"source":',
  });
  t.is(broken.status, 400);
});

test('cross-origin posts are refused; same origin, no origin and allowed origins pass', async (t) => {
  const h = await startFeedbackHarness({ overrides: { feedback: { allowedOrigins: ['https://docs.partner.example'] } } });
  t.teardown(() => h.close());
  const body = { source: 'thumbs_only', path: '/', helpful: true };
  const host = new URL(h.url).host;
  t.is((await h.post(body, { Origin: 'https://evil.example' })).status, 403);
  t.is((await h.post(body, { Origin: `http://${host}.evil.example` })).status, 403);
  t.is((await h.post(body, { Origin: 'null' })).status, 403, 'file:// pages and sandboxed frames send Origin: null');
  t.is((await h.post(body, { 'Sec-Fetch-Site': 'cross-site' })).status, 403);
  t.is((await h.post(body, { Origin: `http://${host}`, 'Sec-Fetch-Site': 'same-origin' })).status, 201);
  t.is((await h.post(body)).status, 201, 'non-browser clients send no Origin');
  const partner = await h.post(body, { Origin: 'https://docs.partner.example', 'Sec-Fetch-Site': 'cross-site' });
  t.is(partner.status, 201);
  t.is(partner.headers.get('access-control-allow-origin'), 'https://docs.partner.example');
  t.is(h.module.log.count(h.projectId), 3, 'refused posts stored nothing');
});

test('per-client limit: the 31st post in a minute → 429 with Retry-After and RateLimit headers; a new window lets it in', async (t) => {
  const clock = new ManualClock(new Date());
  const h = await startFeedbackHarness({ clock });
  t.teardown(() => h.close());
  const body = { source: 'thumbs_only', path: '/', helpful: true };
  for (let i = 0; i < 30; i++) {
    const res = await h.post(body);
    t.is(res.status, 201, `post ${i + 1}`);
    t.truthy(res.headers.get('ratelimit'));
  }
  const limited = await h.post(body);
  t.is(limited.status, 429);
  t.truthy(limited.headers.get('retry-after'));
  t.regex(limited.headers.get('ratelimit-policy') ?? '', /q=30;w=60/);
  t.regex(limited.headers.get('ratelimit') ?? '', /r=0/);
  clock.advance(60_000);
  t.is((await h.post(body)).status, 201);
});

test('no live site → 503 and nothing stored; the project comes from the site, not the client', async (t) => {
  const h = await startFeedbackHarness();
  t.teardown(() => h.close());
  const live = h.site.live;
  h.site.live = null;
  const res = await h.post({ source: 'thumbs_only', path: '/', helpful: true });
  t.is(res.status, 503);
  t.truthy(((await res.json()) as { error: string }).error);
  h.site.live = live;
  const sneaky = await h.post({ source: 'thumbs_only', path: '/', helpful: true, projectId: 'proj_other' });
  t.is(sneaky.status, 400, 'a client-chosen project is an unknown field');
  t.is(h.module.log.count(h.projectId), 0);
});

test('malicious comment and path are stored and returned verbatim as JSON text', async (t) => {
  const h = await startFeedbackHarness();
  t.teardown(() => h.close());
  const evilPath = '/guides/<script>alert(1)</script>';
  h.site.live = { ...h.site.live!, pagePaths: new Set([...h.site.live!.pagePaths, evilPath]) };
  const comment = '<script>alert("x")</script><img src=x onerror=alert(2)> "quotes" \u2028 \u0000 ${x}';
  const res = await h.post({ source: 'contextual', path: evilPath, helpful: false, comment });
  t.is(res.status, 201);
  const list = await h.api('/feedback');
  t.is(list.status, 200);
  t.regex(list.headers.get('content-type') ?? '', /^application\/json/);
  t.is(list.headers.get('x-content-type-options'), 'nosniff');
  const { feedback } = (await list.json()) as { feedback: { path: string; comment: string }[] };
  t.is(feedback[0].path, evilPath);
  t.is(feedback[0].comment, comment);
});
