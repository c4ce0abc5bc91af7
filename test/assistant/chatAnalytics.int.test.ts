import anyTest, { type TestFn } from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { readWithAiV5 } from '../helpers/aiSdkReaders.js';
import { type OpenAiStandIn, startOpenAiStandIn } from '../helpers/openAiStandIn.js';
import { ASK_SITE } from './askSite.js';
import { ASK_DOMAIN, type AssistantHarness, startAssistantHarness } from './assistantHarness.js';

type Context = { harness: AssistantHarness; standIn: OpenAiStandIn; clock: ManualClock; projectId: string; threadId: string };
const test = anyTest as TestFn<Context>;

// 12 analytics requests an hour: the last test spends what is left and must see the shared 429.
const ANALYTICS_PER_HOUR = 12;

test.before(async (t) => {
  const standIn = await startOpenAiStandIn();
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const harness = await startAssistantHarness(ASK_SITE, {
    clock,
    overrides: {
      assistant: { enabled: true, endpoint: standIn.url, model: 'tiny' },
      analytics: { requestsPerHour: ANALYTICS_PER_HOUR },
    },
  });
  const url = `${harness.app.url}/v2/assistant/${ASK_DOMAIN}/message`;
  const headers = { Authorization: `Bearer ${harness.assistantKey}` };
  standIn.script({ deltas: ['600 calls a minute [1].'] }, { deltas: ['Wait the Retry-After seconds [1].'] });
  const first = await readWithAiV5(url, {
    question: 'How many calls does the zanzibar counter allow?',
    body: { fp: 'fp-a', currentPath: '/guides/limits' },
    headers,
  });
  clock.set('2026-05-02T10:00:00.000Z');
  await readWithAiV5(url, {
    question: 'What is the quokkadelay?',
    history: [
      { role: 'user', content: 'How many calls does the zanzibar counter allow?' },
      { role: 'assistant', content: first.text },
    ],
    body: { fp: 'fp-a', threadId: first.threadId },
    headers,
  });
  clock.set('2026-05-03T10:00:00.000Z');
  await readWithAiV5(url, { question: 'Why does the flibbertigibbet fail?', body: { fp: 'fp-b' }, headers });
  const projectId = harness.app.features.assistant.threads.all()[0]!.projectId;
  t.context = { harness, standIn, clock, projectId, threadId: first.threadId! };
});
test.after.always(async (t) => {
  await t.context.harness?.close();
  await t.context.standIn?.close();
});

const get = (t: { context: Context }, path: string) => t.context.harness.app.api(`/v1/analytics/${t.context.projectId}/assistant${path}`);

test.serial('conversations: hosted fields, newest first, paged by cursor, narrowed by dates', async (t) => {
  const first = await get(t, '?limit=2');
  t.is(first.status, 200);
  const page = (await first.json()) as { conversations: Record<string, unknown>[]; nextCursor: string | null; hasMore: boolean };
  t.is(page.conversations.length, 2);
  t.true(page.hasMore);
  t.like(page.conversations[0], {
    query: 'Why does the flibbertigibbet fail?',
    resolutionStatus: 'unanswered',
    responseType: 'answer',
    queryCategory: 'troubleshooting',
    sources: [],
    pageUrl: null,
    timestamp: '2026-05-03T10:00:00.000Z',
  });
  t.deepEqual(page.conversations[1], {
    id: page.conversations[1]!.id,
    threadId: t.context.threadId,
    timestamp: '2026-05-02T10:00:00.000Z',
    query: 'What is the quokkadelay?',
    response: 'Wait the Retry-After seconds [1].',
    responseType: 'answer',
    sources: [{ title: 'Request budgets › Waiting after a refusal', url: '/guides/limits#waiting-after-a-refusal' }],
    resolutionStatus: 'answered',
    queryCategory: 'concept',
    pageUrl: null,
  });
  const rest = (await (await get(t, `?limit=2&cursor=${page.nextCursor}`)).json()) as typeof page;
  t.deepEqual(
    rest.conversations.map((c) => [c.query, c.pageUrl, c.queryCategory]),
    [['How many calls does the zanzibar counter allow?', '/guides/limits', 'how_to']],
  );
  t.false(rest.hasMore);
  t.is(rest.nextCursor, null);
  const dated = (await (await get(t, '?dateFrom=2026-05-02&dateTo=2026-05-03')).json()) as typeof page;
  t.deepEqual(
    dated.conversations.map((c) => c.query),
    ['What is the quokkadelay?'],
  );
});

test.serial('a thread reads back as questions and answers; unknown threads are 404', async (t) => {
  const res = await get(t, `/threads/${t.context.threadId}`);
  t.is(res.status, 200);
  const thread = (await res.json()) as { threadId: string; createdAt: string; messages: { role: string; content: string }[] };
  t.is(thread.threadId, t.context.threadId);
  t.is(thread.createdAt, '2026-05-01T10:00:00.000Z');
  t.deepEqual(
    thread.messages.map((m) => [m.role, m.content]),
    [
      ['user', 'How many calls does the zanzibar counter allow?'],
      ['assistant', '600 calls a minute [1].'],
      ['user', 'What is the quokkadelay?'],
      ['assistant', 'Wait the Retry-After seconds [1].'],
    ],
  );
  t.is((await get(t, '/threads/01ARZ3NDEKTSV4RRFFQ69G5FAV')).status, 404);
});

test.serial('caller stats count the doors; bad parameters are named; the analytics budget is shared', async (t) => {
  t.deepEqual(await (await get(t, '/caller-stats')).json(), { web: 0, api: 3, other: 0, total: 3 });
  t.deepEqual(await (await get(t, '/caller-stats?dateFrom=2026-05-03')).json(), { web: 0, api: 1, other: 0, total: 1 });
  const bad = await get(t, '?limit=1001&dateFrom=yesterday');
  t.is(bad.status, 400);
  const said = JSON.stringify(await bad.json());
  t.regex(said, /query\.limit/);
  t.regex(said, /query\.dateFrom/);
  // Spend the rest of the hour's budget on another analytics endpoint: the assistant's share it.
  let status = 200;
  for (let i = 0; i < ANALYTICS_PER_HOUR && status !== 429; i++) {
    status = (await t.context.harness.app.api(`/v1/analytics/${t.context.projectId}/views`)).status;
  }
  t.is(status, 429);
  const limited = await get(t, '/caller-stats');
  t.is(limited.status, 429);
  t.truthy(limited.headers.get('retry-after'));
});
