import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { VECTOR_CACHE_PRUNE_TASK } from '../../src/features/assistant/assistantFeature.js';
import { ManualClock } from '../../src/platform/Clock.js';
import { startOpenAiStandIn } from '../helpers/openAiStandIn.js';
import { writeDocs } from '../render/renderFixture.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { ASK_DOMAIN, type AssistantHarness, renderAskBundle } from './assistantHarness.js';
import { embeddingRequests, HYBRID_SITE, searchPaths, startHybridHarness, VECTOR_ONLY_QUERY } from './hybridFixture.js';

// The section-vector cache (<dataDir>/assistant/embeddings/) keeps only the live versions'
// sections: a daily task prunes what replaced versions and other models left, and a load that
// leaves the file over `assistant.vectorCacheMaxBytes` prunes it at once.

const cacheDir = (h: AssistantHarness) => join(h.app.dataDir, 'assistant', 'embeddings');

/** Keys of the cache file's lines (the test reads the file as written, not through the code under test). */
async function cachedKeys(h: AssistantHarness): Promise<string[]> {
  const files = (await readdir(cacheDir(h))).filter((f) => f.endsWith('.jsonl'));
  const lines: string[] = [];
  for (const f of files) lines.push(...(await readFile(join(cacheDir(h), f), 'utf8')).split('\n').filter(Boolean));
  return lines.map((l) => (JSON.parse(l) as { h: string }).h);
}

/** What the live version's sections are cached under: SHA-256 of title, heading and body (the cache's documented key). */
async function liveKeys(h: AssistantHarness): Promise<string[]> {
  const live = h.app.features.deployments.activeSite.current(ASK_DOMAIN)?.installed;
  if (!live) throw new Error('nothing live');
  const text = await readFile(join(live.filesDir, '_enclave', 'sections.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const c = JSON.parse(line) as { title: string; section: string; content: string };
      return createHash('sha256').update(`${c.title}\n${c.section}\n${c.content}`).digest('base64url');
    });
}

test('the prune task keeps exactly the live version’s sections: a replaced version’s and another model’s vectors go', async (t) => {
  const standIn = await startOpenAiStandIn();
  const clock = new ManualClock();
  const h = await startHybridHarness(standIn, { clock });
  t.teardown(async () => {
    await h.close();
    await standIn.close();
  });
  const retriever = h.app.features.assistant.retriever;
  t.true(await retriever.vectorsSettled(ASK_DOMAIN));
  const first = await liveKeys(h);
  t.deepEqual((await cachedKeys(h)).sort(), [...first].sort());

  // Version 2: one page reworded. Only its section is embedded; the cache holds both versions.
  const files = { ...HYBRID_SITE, 'guides/other.mdx': '---\ntitle: Other\n---\n\n## Printers\n\nPrinters need ink now.\n' };
  const zip = join(await makeTempDir('enclave-v2-'), 'v2.zip');
  await renderAskBundle(await writeDocs(t, files), zip, 'job-2');
  await h.app.features.deployments.activateBundleFile(zip, { source: 'test export' });
  const before = embeddingRequests(standIn);
  t.true(await retriever.vectorsSettled(ASK_DOMAIN));
  t.is(embeddingRequests(standIn), before + 1, 'one batch: the reworded section');
  const second = await liveKeys(h);
  const replaced = first.filter((k) => !second.includes(k));
  t.is(replaced.length, 1);
  t.is((await cachedKeys(h)).length, first.length + 1);
  await writeFile(join(cacheDir(h), '0123456789abcdef.jsonl'), '{"h":"from-another-model","v":"AACAPw=="}\n');

  const task = h.app.features.assistant.tasks?.find((x) => x.name === VECTOR_CACHE_PRUNE_TASK);
  t.truthy(task);
  await task?.run(clock.now());
  t.deepEqual((await cachedKeys(h)).sort(), [...second].sort(), 'the live version’s sections, nothing else');
  t.is((await searchPaths(h, VECTOR_ONLY_QUERY)).paths[0], 'guides/gate', 'hybrid ranking goes on');
});

test('a load that leaves the cache over vectorCacheMaxBytes prunes it at once; the version still ranks hybrid', async (t) => {
  const standIn = await startOpenAiStandIn();
  const bound = 1000; // two of the stand-in's 64-dimension vectors fit, not three
  const h = await startHybridHarness(standIn, { clock: new ManualClock(), assistant: { vectorCacheMaxBytes: bound } });
  t.teardown(async () => {
    await h.close();
    await standIn.close();
  });
  t.true(await h.app.features.assistant.retriever.vectorsSettled(ASK_DOMAIN));
  t.true((await liveKeys(h)).length > 2, 'the site has more sections than fit');
  const [file] = (await readdir(cacheDir(h))).filter((f) => f.endsWith('.jsonl'));
  const size = (await stat(join(cacheDir(h), file!))).size;
  t.true(size > 0 && size <= bound, `cache is ${size} bytes`);
  t.is((await searchPaths(h, VECTOR_ONLY_QUERY)).paths[0], 'guides/gate', 'the vectors in memory are whole');
});
