import test from 'ava';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SectionChunk, sectionChunkLine } from '../../src/render/search/sectionChunks.js';
import { buildSectionIndex } from '../../src/features/assistant/retrieval/buildSectionIndex.js';
import { JoinedStrings } from '../../src/features/assistant/retrieval/JoinedStrings.js';
import { queryTerms } from '../../src/features/assistant/retrieval/queryTerms.js';
import { readSections } from '../../src/features/assistant/retrieval/readSections.js';
import { termScore } from '../../src/features/assistant/retrieval/termScore.js';

/** A deterministic pseudo-random word list, so sections share words in varied amounts. */
const WORDS = [
  'budget',
  'key',
  'retry',
  'header',
  'server',
  'serverless',
  'token',
  'tokens',
  'webhook',
  'limit',
  'limits',
  'élan',
  'naïve',
  'conf',
  'config',
];
function sections(): SectionChunk[] {
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  const words = (n: number) => Array.from({ length: n }, () => WORDS[next() % WORDS.length]).join(next() % 3 ? ' ' : '-');
  const out: SectionChunk[] = [];
  for (let p = 0; p < 30; p++) {
    const version = p % 3 === 0 ? 'v1' : 'v2';
    // A page's title and description are the same on each of its sections, as the export writes them.
    const title = p === 5 ? 'Config' : `Page ${words(2)}`;
    const description = p % 5 === 0 ? words(3) : '';
    for (let s = 0; s < 1 + (p % 4); s++)
      out.push({
        path: `p/${p}`,
        title,
        section: s === 0 ? '' : words(2),
        anchor: s === 0 ? '' : `s${s}`,
        content: words(5 + (next() % 40)),
        description,
        language: null,
        version,
        product: null,
        tag: p % 7 === 0 ? 'NEW' : null,
      });
  }
  return out;
}

/** The ranking spelled out on the text itself: what the index must reproduce. */
function oracle(chunks: SectionChunk[], query: string, version: string): string[] {
  const terms = queryTerms(query);
  const rows = chunks.flatMap((c, id) => {
    if (c.version !== version) return [];
    let matched = 0;
    let score = 0;
    for (const t of terms) {
      const body = c.content.toLowerCase();
      const s = termScore({
        titleAt: c.title.toLowerCase().indexOf(t),
        titleIsTerm: c.title.toLowerCase() === t,
        inSection: c.section.toLowerCase().includes(t),
        inDescription: c.description.toLowerCase().includes(t),
        bodyCount: body.split(t).length - 1,
      });
      if (s > 0) matched++;
      score += s;
    }
    return matched > 0 ? [{ id, matched, score }] : [];
  });
  rows.sort((a, b) => b.matched - a.matched || b.score - a.score || a.id - b.id);
  return rows.map((r) => `${chunks[r.id].path}#${chunks[r.id].anchor}:${r.matched}:${r.score}`);
}

test('the index ranks exactly as the search box rules applied to each section text, filters by version, reads hits back', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'enclave-index-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const chunks = sections();
  const file = join(dir, 'sections.jsonl');
  await writeFile(file, chunks.map(sectionChunkLine).join(''));
  const index = await buildSectionIndex(file, 1 << 20);
  t.deepEqual(index.defaults, { language: null, version: 'v1' }, 'the first version listed is the default');
  for (const query of [
    'config',
    'server token',
    'how do I retry with a header?',
    'naïve élan',
    'conf limits budget',
    'zzz',
    'token tokens',
  ]) {
    for (const version of ['v1', 'v2']) {
      const page = (i: number) => index.parts.pages[index.parts.sectionPage[i]];
      const got = index
        .rank(queryTerms(query), (p) => index.admits(p, { version }))
        .map((r) => `${page(r.id).path}#${index.parts.sectionAnchor[r.id]}:${r.matched}:${r.score}`);
      t.deepEqual(got, oracle(chunks, query, version), `${query} in ${version}`);
    }
  }
  const top = index.rank(['webhook'], () => true).slice(0, 3);
  t.deepEqual(
    readSections(
      file,
      index,
      top.map((r) => r.id),
    ).map((c) => c.content),
    top.map((r) => chunks[r.id].content),
  );
  t.true(
    index
      .rank(['config'], (p) => index.admits(p, { version: 'v2', tag: 'NEW' }))
      .every((r) => index.parts.pages[index.parts.sectionPage[r.id]].tag === 'NEW'),
  );
});

test('a chunk file over the size cap is refused; a missing one is an empty index', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'enclave-index-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'sections.jsonl');
  await writeFile(file, sections().map(sectionChunkLine).join(''));
  await t.throwsAsync(() => buildSectionIndex(file, 100), { message: /over assistant\.maxIndexBytes/ });
  t.deepEqual(
    (await buildSectionIndex(join(dir, 'none.jsonl'), 100)).rank(['config'], () => true),
    [],
  );
  await writeFile(file, '{"not":"a chunk"}\n');
  await t.throwsAsync(() => buildSectionIndex(file, 1 << 20), { message: /not a section chunk file/ });
});

test('joined strings find every string holding a term, with where it first occurs', (t) => {
  const joined = new JoinedStrings(['alpha', 'beta', '', 'alphabet', 'gamma alpha']);
  const found: [number, number][] = [];
  joined.forEachContaining('alpha', (i, at) => found.push([i, at]));
  t.deepEqual(found, [
    [0, 0],
    [3, 0],
    [4, 6],
  ]);
  t.is(joined.at(3), 'alphabet');
  t.is(joined.size, 5);
});
