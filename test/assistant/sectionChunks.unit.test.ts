import test from 'ava';
import { sectionChunks } from '../../src/render/search/sectionChunks.js';

const page = {
  path: 'guides/limits',
  title: 'Request budgets',
  description: 'How many calls',
  scope: 'language:fr|version:v2',
  tag: 'NEW',
  headings: [
    { text: 'Per-key budget', id: 'per-key-budget' },
    { text: 'Waiting after a refusal', id: 'waiting' },
  ],
  markdown: [
    '# Request budgets',
    '',
    '> How many calls',
    '',
    'Intro text.',
    '',
    '## Per-key `budget`',
    '',
    'Six hundred a minute.',
    '',
    '```md',
    '## not a heading',
    '```',
    '',
    '### Only in Markdown',
    '',
    'Deeper.',
    '',
    '## Waiting after a refusal',
    '',
    'Retry-After.',
  ].join('\n'),
};

test('a page is cut at its headings, outside code fences, each section with the id the page gave its heading', (t) => {
  const chunks = sectionChunks(page);
  t.deepEqual(
    chunks.map((c) => [c.section, c.anchor]),
    [
      ['', ''],
      ['Per-key budget', 'per-key-budget'],
      ['Only in Markdown', 'only-in-markdown'],
      ['Waiting after a refusal', 'waiting'],
    ],
  );
  t.true(chunks[1].content.includes('## not a heading'), 'a fenced line stays in its section');
  t.true(chunks[0].content.startsWith('> How many calls'), 'the page title line is not a section of its own');
  t.like(chunks[3], { path: 'guides/limits', title: 'Request budgets', language: 'fr', version: 'v2', product: null, tag: 'NEW' });
});

test('a long section is split into parts under the same heading and anchor, none over the cap', (t) => {
  const para = `${'word '.repeat(150).trim()}\n\n`;
  const chunks = sectionChunks({ ...page, markdown: `# T\n\n## Long\n\n${para.repeat(40)}` });
  t.true(chunks.length > 2);
  for (const c of chunks) {
    t.is(c.anchor, 'long');
    t.true(c.content.length <= 4000);
  }
  t.is(
    chunks
      .map((c) => c.content)
      .join('')
      .replace(/\s/g, '').length,
    `## Long${para.repeat(40)}`.replace(/\s/g, '').length,
  );
});
