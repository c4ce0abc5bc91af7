import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { startOpenAiStandIn } from '../helpers/openAiStandIn.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { ASK_DOMAIN, type AssistantHarness } from './assistantHarness.js';
import { embeddingRequests, searchPaths, startHybridHarness, VECTOR_ONLY_QUERY } from './hybridFixture.js';

// The embedding endpoint's circuit breaker (EmbeddingBreaker): while the stand-in is down or
// stalled, searches rank by keywords without asking it again until the back-off has passed on
// the appliance's clock, which only the test moves; then one request at a time probes it.

const FIRST_MS = 10_000;
const MAX_MS = 40_000;

interface Ready {
  modules: { assistant?: { status: string; detail?: string; embeddings: string; failures?: number; retryAt?: string } };
}

async function start(t: import('ava').ExecutionContext, options: { timeoutMs?: number; stalled?: boolean } = {}) {
  const standIn = await startOpenAiStandIn();
  standIn.embeddingsStall = options.stalled ?? false;
  const clock = new ManualClock('2026-05-01T00:00:00.000Z');
  const h = await startHybridHarness(standIn, {
    clock,
    assistant: { embeddingTimeoutMs: options.timeoutMs ?? 60_000, embeddingBackoffMs: FIRST_MS, embeddingBackoffMaxMs: MAX_MS },
  });
  t.teardown(async () => {
    await h.close();
    await standIn.close();
  });
  return { standIn, clock, h };
}

async function ready(h: AssistantHarness): Promise<Ready['modules']['assistant']> {
  return ((await (await fetch(`${h.app.url}/_enclave/ready`)).json()) as Ready).modules.assistant;
}

test('down: one failed query embedding, then keyword ranking without asking until the back-off ends; the probe that finds it back ranks hybrid', async (t) => {
  const { standIn, clock, h } = await start(t);
  t.true(await h.app.features.assistant.retriever.vectorsSettled(ASK_DOMAIN));
  t.like(await ready(h), { status: 'ok', embeddings: 'closed' });
  t.deepEqual((await searchPaths(h, VECTOR_ONLY_QUERY)).paths[0], 'guides/gate', 'hybrid while the endpoint answers');

  standIn.embeddingsOff = true;
  const before = embeddingRequests(standIn);
  t.deepEqual(await searchPaths(h, VECTOR_ONLY_QUERY), { status: 200, paths: [] }, 'keyword ranking, no error');
  t.is(embeddingRequests(standIn), before + 1);
  for (let i = 0; i < 3; i++) t.deepEqual(await searchPaths(h, VECTOR_ONLY_QUERY), { status: 200, paths: [] });
  t.is((await searchPaths(h, 'printers toner')).paths[0], 'guides/other', 'keyword hits still come');
  t.is(embeddingRequests(standIn), before + 1, 'nothing sent while the breaker is open');
  const open = await ready(h);
  t.like(open, { status: 'degraded', embeddings: 'open', failures: 1, retryAt: '2026-05-01T00:00:10.000Z' });
  t.regex(open?.detail ?? '', /answered 404/);

  clock.advance(FIRST_MS - 1);
  await searchPaths(h, VECTOR_ONLY_QUERY);
  t.is(embeddingRequests(standIn), before + 1, 'a millisecond early: still nothing');
  clock.advance(1);
  t.deepEqual((await searchPaths(h, VECTOR_ONLY_QUERY)).paths, [], 'the probe fails: keywords');
  t.is(embeddingRequests(standIn), before + 2, 'one probe');
  t.like(await ready(h), { embeddings: 'open', failures: 2, retryAt: '2026-05-01T00:00:30.000Z' }, 'the back-off doubled');

  standIn.embeddingsOff = false;
  clock.advance(2 * FIRST_MS);
  t.is((await searchPaths(h, VECTOR_ONLY_QUERY)).paths[0], 'guides/gate', 'the probe succeeds and its search ranks hybrid');
  t.like(await ready(h), { status: 'ok', embeddings: 'closed' });
  await searchPaths(h, VECTOR_ONLY_QUERY);
  t.is(embeddingRequests(standIn), before + 4, 'closed again: every search embeds its query');
});

test('recovering: while a probe is held by a stalled endpoint, other searches neither wait nor send a second one', async (t) => {
  const { standIn, clock, h } = await start(t);
  t.true(await h.app.features.assistant.retriever.vectorsSettled(ASK_DOMAIN));
  standIn.embeddingsOff = true;
  await searchPaths(h, VECTOR_ONLY_QUERY);
  standIn.embeddingsOff = false;
  standIn.embeddingsStall = true;
  clock.advance(FIRST_MS);
  const before = embeddingRequests(standIn);
  const probing = searchPaths(h, VECTOR_ONLY_QUERY);
  await waitUntil('the probe to reach the stand-in', async () => embeddingRequests(standIn) > before);
  t.like(await ready(h), { status: 'degraded', embeddings: 'probing' });
  const others = await Promise.all([searchPaths(h, VECTOR_ONLY_QUERY), searchPaths(h, 'printers toner')]);
  t.deepEqual(
    others.map((o) => o.paths[0]),
    [undefined, 'guides/other'],
    'answered by keywords while the probe is still held',
  );
  t.is(embeddingRequests(standIn), before + 1, 'one probe at a time');
  standIn.embeddingsStall = false;
  standIn.release();
  t.is((await probing).paths[0], 'guides/gate', 'the held probe got its vector after all');
  t.like(await ready(h), { status: 'ok', embeddings: 'closed' });
});

test('stalled from the start: the sections are tried again only after the back-off, and embedded once the endpoint answers', async (t) => {
  // The time limit must cut a stall yet let a healthy answer through at the end: the default
  // 5 s sits between the two however loaded the machine is (the stand-in answers in milliseconds).
  const { standIn, clock, h } = await start(t, { timeoutMs: 5000, stalled: true });
  const retriever = h.app.features.assistant.retriever;
  t.false(await retriever.vectorsSettled(ASK_DOMAIN));
  t.is(embeddingRequests(standIn), 1, 'one batch, cut at the time limit');
  t.like(await ready(h), { status: 'degraded', embeddings: 'open', failures: 1 });
  t.deepEqual(await searchPaths(h, VECTOR_ONLY_QUERY), { status: 200, paths: [] });
  t.false(await retriever.vectorsSettled(ASK_DOMAIN));
  t.is(embeddingRequests(standIn), 1, 'no new try inside the back-off');

  clock.advance(FIRST_MS);
  t.false(await retriever.vectorsSettled(ASK_DOMAIN), 'the retry stalls too');
  t.is(embeddingRequests(standIn), 2);
  t.like(await ready(h), { embeddings: 'open', failures: 2 });

  standIn.embeddingsStall = false;
  clock.advance(2 * FIRST_MS);
  t.true(await retriever.vectorsSettled(ASK_DOMAIN), 'embedded once the endpoint answers');
  t.like(await ready(h), { status: 'ok', embeddings: 'closed' });
  t.is((await searchPaths(h, VECTOR_ONLY_QUERY)).paths[0], 'guides/gate');
});
