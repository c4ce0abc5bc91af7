import test from 'ava';
import type { Code } from 'mdast';
import { visit } from 'unist-util-visit';
import { createCodeHighlighter } from '../../src/render/code/createCodeHighlighter.js';
import { scanFencedBlocks } from '../../src/render/code/scanFencedBlocks.js';
import { parseSource } from '../../src/render/mdx/parseSource.js';
import { createReportCollector } from '../../src/render/report/createReportCollector.js';

/** Fences in the places docs put them: top level, indented inside components, tildes, longer fences, meta. */
const PAGE = [
  '---',
  'title: Fences',
  '---',
  '',
  'Some text with ```inline``` code that opens no fence.',
  '',
  '```ts config.ts {2}',
  'export const a = 1;',
  'const b = a + 1; // [!code highlight]',
  '```',
  '',
  '<CodeGroup>',
  '  ```bash install.sh',
  '  npm install --save widget',
  '    indented more',
  '  ```',
  '',
  '  ```python',
  '  print("hi")',
  '  ```',
  '</CodeGroup>',
  '',
  '~~~json',
  '{ "a": [1, 2] }',
  '~~~',
  '',
  '````md',
  '```js',
  'nested()',
  '```',
  '````',
  '',
  '```',
  'no language at all',
  '```',
  '',
].join('\n');

test('the quick fence reading gives each code block the language and code the MDX parser gives it', (t) => {
  const parsed: { lang: string | null; value: string }[] = [];
  visit(parseSource(PAGE, 'mdx'), 'code', (node: Code) => void parsed.push({ lang: node.lang ?? null, value: node.value }));
  t.is(parsed.length, 6);
  t.deepEqual(scanFencedBlocks(PAGE), parsed);
});

test('an unclosed fence runs to the end of the text, as in CommonMark', (t) => {
  t.deepEqual(scanFencedBlocks('intro\n\n```ts\nlet x = 1;\nlet y = 2;'), [{ lang: 'ts', value: 'let x = 1;\nlet y = 2;' }]);
});

test('blocks prepared ahead are highlighted from the cache, exactly as without preparing', async (t) => {
  const blocks = scanFencedBlocks(PAGE);
  const ctx = { report: createReportCollector(), pagePath: 'fences' } as never;
  const fresh = await createCodeHighlighter({ languages: ['ts', 'bash', 'python', 'json', 'md'] });
  const ready = await createCodeHighlighter({ languages: ['ts', 'bash', 'python', 'json', 'md'] });
  ready.prepare(blocks);
  const prepared = ready.stats().misses;
  t.true(prepared >= 5, `${prepared} blocks tokenized ahead`);
  for (const block of blocks) {
    const input = { lang: block.lang, meta: null, value: block.value };
    t.deepEqual(ready.highlight(input, ctx), fresh.highlight(input, ctx));
  }
  t.is(ready.stats().misses, prepared, 'no block was tokenized again when its page asked for it');
  t.is(ready.stats().hits, prepared);
});

test('Mermaid fences are not tokenized ahead: they become diagrams, never highlighted code', async (t) => {
  const highlighter = await createCodeHighlighter({ languages: ['mermaid', 'ts'] });
  highlighter.prepare([{ lang: 'mermaid', value: 'graph TD\n  A --> B' }]);
  t.is(highlighter.stats().misses, 0);
});
