import test from 'ava';
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ManualClock } from '../../src/platform/Clock.js';
import { ManualClockWithTimeLimits } from '../helpers/ManualClockWithTimeLimits.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { type OpenAiStandIn, startOpenAiStandIn } from '../helpers/openAiStandIn.js';
import { ASK_DOMAIN, type AssistantHarness } from './assistantHarness.js';
import { embeddingRequests, searchPaths, startHybridHarness, VECTOR_ONLY_QUERY } from './hybridFixture.js';

const QUERY = VECTOR_ONLY_QUERY;

/** The hybrid site on a clock of its own: the embedding breaker's back-off never ends by itself here. */
function start(standIn: OpenAiStandIn, dataDir?: string, clock = new ManualClock()): Promise<AssistantHarness> {
  return startHybridHarness(standIn, { dataDir, clock, assistant: { embeddingTimeoutMs: 60_000 } });
}

const search = searchPaths;

test('a query whose words miss but whose vector matches finds its section; a second deploy embeds nothing anew', async (t) => {
  const standIn = await startOpenAiStandIn();
  const dataDir = await makeTempDir('enclave-hybrid-');
  const dataDir2 = await makeTempDir('enclave-hybrid-');
  t.teardown(async () => {
    await standIn.close();
    for (const dir of [dataDir, dataDir2]) await rm(dir, { recursive: true, force: true });
  });
  const first = await start(standIn, dataDir);
  t.true(await first.app.features.assistant.retriever.vectorsSettled(ASK_DOMAIN));
  t.true(embeddingRequests(standIn) > 0, 'the sections were embedded');
  const hybrid = await search(first, QUERY);
  t.is(hybrid.status, 200);
  t.is(hybrid.paths[0], 'guides/gate');
  // Words that do match still lead: keyword and vector agree on the printers section.
  t.is((await search(first, 'printers toner')).paths[0], 'guides/other');
  await first.close();

  // The same sections deployed again by a fresh appliance that has the first one's vector cache
  // (the rest of the data dir, keys included, is new): every vector comes from the cache.
  await cp(join(dataDir, 'assistant', 'embeddings'), join(dataDir2, 'assistant', 'embeddings'), { recursive: true });
  const before = embeddingRequests(standIn);
  const second = await start(standIn, dataDir2);
  t.teardown(() => second.close());
  t.true(await second.app.features.assistant.retriever.vectorsSettled(ASK_DOMAIN));
  t.is(embeddingRequests(standIn), before, 'no section was sent to the endpoint again');
  t.is((await search(second, QUERY)).paths[0], 'guides/gate');
  t.is(embeddingRequests(standIn), before + 1, 'only the query was embedded');
});

test('an endpoint without embeddings (404) falls back to keyword ranking, with no error to the caller', async (t) => {
  const standIn = await startOpenAiStandIn();
  standIn.embeddingsOff = true;
  const h = await start(standIn);
  t.teardown(async () => {
    await h.close();
    await standIn.close();
  });
  t.false(await h.app.features.assistant.retriever.vectorsSettled(ASK_DOMAIN));
  t.deepEqual(await search(h, QUERY), { status: 200, paths: [] }, 'keyword ranking: the words match nothing');
  t.is((await search(h, 'printers toner')).paths[0], 'guides/other');
  t.is(embeddingRequests(standIn), 1, 'one failed batch; queries are not embedded once the version has no vectors');
});

test('a stalled embeddings endpoint is given up on after the time limit: keyword ranking', async (t) => {
  const standIn = await startOpenAiStandIn();
  standIn.embeddingsStall = true;
  // The 60 s limit passes on the appliance's clock once the request is held by the stand-in: a
  // short wall-clock limit instead could fire before a loaded machine had even sent it.
  const clock = new ManualClockWithTimeLimits();
  const h = await start(standIn, undefined, clock);
  t.teardown(async () => {
    await h.close();
    await standIn.close();
  });
  const settled = h.app.features.assistant.retriever.vectorsSettled(ASK_DOMAIN);
  const stalled = await waitUntil('the sections batch to reach the stand-in', async () =>
    standIn.requests.find((r) => r.path === '/v1/embeddings'),
  );
  clock.advance(60_000 - 1);
  t.is(clock.pendingTimeLimits, 1, 'the request runs under the 60 s limit, on the clock: not yet');
  clock.advance(1);
  t.is(clock.pendingTimeLimits, 0, 'a millisecond later it fired');
  t.false(await settled);
  await stalled.ended;
  t.true(stalled.aborted, 'the stalled request was cut');
  t.deepEqual(await search(h, QUERY), { status: 200, paths: [] });
});
