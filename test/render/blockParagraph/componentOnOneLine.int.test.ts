import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { renderFiles } from '../renderFixture.js';

const PAGE = [
  '# Cards',
  '',
  '<Card title="One">Some text</Card>',
  '',
  '<Note>A short note</Note>',
  '',
  'Before <Card title="Two">inside</Card> after.',
  '',
  '<Card title="Linked" href="/other">Linked text</Card>',
  '',
  'A plain paragraph with **bold** and a [link](/other).',
].join('\n');

/** Every element of a parsed page, depth first. */
function elements(node: Root | Element): Element[] {
  return node.children.flatMap((c) => (c.type === 'element' ? [c, ...elements(c)] : []));
}

test('a component written on one line is not wrapped in a paragraph, so the browser keeps it whole', async (t) => {
  const { out } = await renderFiles(t, {
    'docs.json': JSON.stringify({ name: 'X', navigation: { pages: ['index', 'other'] } }),
    'index.mdx': PAGE,
    'other.mdx': '# Other\n',
  });
  const html = await readFile(join(out, 'index.html'), 'utf8');
  const main = html.slice(html.indexOf('<div class="enclave-content">'), html.indexOf('<div id="enclave-feedback"'));
  t.notRegex(main, /<p>\s*<(?:div|aside|a class="enclave-card)/, 'no box opens right after a <p>');
  t.regex(main, /<p>Before <\/p>\s*<div class="enclave-card">[\s\S]*?inside[\s\S]*?<p> after\.<\/p>/, 'text around a box stays');
  t.regex(main, /<p>A plain paragraph with <strong>bold<\/strong> and a <a href="other\.html">link<\/a>\.<\/p>/);

  // What a browser's parser builds from the page: the linked card still holds its title and
  // text, and no paragraph came out empty (the trace of a <p> closed by a box inside it).
  const tree = fromHtml(html);
  const linked = elements(tree).find((e) => e.tagName === 'a' && String(e.properties.className).includes('enclave-card-linked'));
  t.truthy(linked);
  t.regex(JSON.stringify(linked), /"Linked"[\s\S]*"Linked text"/);
  const content = elements(tree).find((e) => String(e.properties.className) === 'enclave-content');
  const emptyParagraphs = elements(content as Element).filter((e) => e.tagName === 'p' && e.children.length === 0);
  t.is(emptyParagraphs.length, 0);
});
