import test from 'ava';
import type { Root, RootContent } from 'mdast';
import { normalizeSource, parseWithMicromark } from '../../src/render/mdx/parseSource.js';

const types = (root: Root) => root.children.map((n: RootContent) => n.type);
const parse = (text: string) => parseWithMicromark(normalizeSource(text, 'mdx'), 'mdx');

test('an export line inside fenced code is code: the page needs no ES module parsing', (t) => {
  const root = parse('Intro\n\n```ts\nexport const a = 1;\n```\n\n<Card cols={2}>\nx\n</Card>\n');
  t.deepEqual(types(root), ['paragraph', 'code', 'mdxJsxFlowElement']);
  const attr = (root.children[2] as { attributes: { value: { data?: unknown } }[] }).attributes[0];
  t.is(attr.value.data, undefined, 'expressions are left unparsed (no estree) on a page without ESM');
});

test('a real export statement is still an ES module statement, also after a fence that is never closed', (t) => {
  t.deepEqual(types(parse('export const a = 1;\n\n# Title\n')), ['mdxjsEsm', 'heading']);
  // micromark ends this fence with the list item; a line-based scan can't tell, so it must not
  // treat the statement as code.
  const root = parse('- item\n  ```js\n  code\n\nexport const a = 1;\n');
  t.true(types(root).includes('mdxjsEsm'), `the statement is parsed as ESM: ${types(root).join(', ')}`);
});

test('a paragraph that starts with the word export is prose, not a failed statement', (t) => {
  const root = parse('export your data from the dashboard.\n');
  t.deepEqual(types(root), ['paragraph']);
});
