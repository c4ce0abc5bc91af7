import test from 'ava';
import type { Element, Nodes, Root, Text } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { join } from 'node:path';
import { scanFenceLanguages } from '../../src/render/code/scanFenceLanguages.js';
import { hastToHtml } from '../../src/render/page/hastToHtml.js';
import { createContentRenderer } from '../../src/render/parallel/createPageRenderer.js';
import { createReportCollector } from '../../src/render/report/createReportCollector.js';
import { loadSite } from '../../src/render/site/loadSite.js';
import { readDocsSource } from '../../src/render/source/readDocsSource.js';
import { sharedPath } from '../helpers/sharedDir.js';

/** The reference: what the page serializer replaced, with the options the renderer used. */
const reference = (tree: Nodes) => toHtml(tree, { allowDangerousHtml: true });

for (const [name, dir] of [
  ['the sample docs', join(process.cwd(), 'examples/sample-docs')],
  ['starter', sharedPath('corpora/starter')],
  ['mcp', sharedPath('corpora/mcp')],
  ['unstructured', sharedPath('corpora/unstructured')],
] as const) {
  test(`every page of ${name} serializes to the same bytes as hast-util-to-html`, async (t) => {
    t.timeout(120_000);
    const source = await readDocsSource(dir);
    const report = createReportCollector();
    const site = await loadSite(dir, source, report);
    const render = await createContentRenderer({ site, report, sourceDir: dir, languages: scanFenceLanguages(source.texts.values()) });
    const differ: string[] = [];
    let compared = 0;
    for (let i = 0; i < site.selected.length; i++) {
      let tree: Nodes;
      try {
        tree = render(i).content.hast;
      } catch {
        continue; // a page the renderer fails is an error page, not serialized content
      }
      compared++;
      if (hastToHtml(tree) !== reference(tree)) differ.push(site.selected[i]!.path);
    }
    t.deepEqual(differ, []);
    t.true(compared >= site.selected.length * 0.9 && compared > 0, `${compared} of ${site.selected.length} pages compared`);
  });
}

const el = (tagName: string, properties: Record<string, unknown>, children: unknown[] = []) =>
  ({ type: 'element', tagName, properties, children }) as Element;
const text = (value: string): Text => ({ type: 'text', value });
const root = (children: unknown[]) => ({ type: 'root', children }) as Root;

test('the cases pages rarely contain serialize the same too', (t) => {
  const cases: [string, Nodes][] = [
    [
      'escaping in text, attributes and names',
      el('p', { title: 'a"b\'c`d&e\0f<g>', dataX: 'y', 'weird name': 'v' }, [text('1 < 2 && 3 > 2 "q" \u00a0 \ud83d\ude00')]),
    ],
    [
      'script and style text stays raw',
      root([el('script', {}, [text('if (a < b && c) {}')]), el('style', {}, [text('a > b { content: "&" }')])]),
    ],
    ['raw HTML passes through', root([{ type: 'raw', value: '<b>&amp; raw</b>' }, text('&')])],
    [
      'comments, doctype',
      root([{ type: 'doctype' }, { type: 'comment', value: '>a --> b <!-- c --!> d <!-' }, { type: 'comment', value: '->x' }]),
    ],
    [
      'booleans, overloaded booleans, numbers and NaN',
      el('input', {
        disabled: true,
        checked: false,
        hidden: '',
        download: 'download',
        value: 0,
        tabIndex: Number.NaN,
        min: 3,
        readOnly: 'readonly',
        multiple: 'no',
      }),
    ],
    [
      'lists: spaces, commas, a trailing empty item',
      el('img', { className: ['a', '', 'b '], srcSet: ['a.png 1x', 'b.png 2x'], accept: ['.a', ''], sizes: [] }),
    ],
    ['void elements, with and without content', root([el('br', {}), el('hr', {}, [text('x')]), el('BR', {}), el('img', {}, [text('')])])],
    [
      'svg names, closing and HTML inside integration points',
      el('svg', { viewBox: '0 0 1 1', xLinkHref: '#a', strokeWidth: 2, className: ['i'] }, [
        el('path', { d: 'M0 0' }),
        el('foreignObject', { requiredExtensions: 'x' }, [el('div', { className: ['h'] }, [el('br', {})])]),
        el('title', {}, [text('t & <u>')]),
        el('br', {}),
      ]),
    ],
    [
      'template content',
      { type: 'element', tagName: 'template', properties: {}, children: [], content: root([el('p', {}, [text('inside')])]) } as Element,
    ],
    [
      'null and undefined properties are left out',
      el('a', { href: null, title: undefined, rel: ['noopener', 'noreferrer'], ariaHidden: 'true', ariaLabel: 'x' }),
    ],
    ['data attributes by camel case', el('div', { dataEnclaveStep: '', dataFooBar2: 'x', data123: 'y' })],
  ];
  for (const [label, tree] of cases) t.is(hastToHtml(tree), reference(tree), label);
});

test('an unknown node type is an error, not silent output', (t) => {
  t.throws(() => hastToHtml({ type: 'mdxJsxFlowElement' } as unknown as Nodes), { message: /unknown node type mdxJsxFlowElement/ });
});
