import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { browserSuite } from '../browserSuite.js';

/** The same heading, list, paragraph and link once as prose and once inside `not-prose`. */
const SITE = {
  'docs.json': JSON.stringify({ name: 'Prose', colors: { primary: '#0D9373' }, navigation: { pages: ['index', 'other'] } }),
  'index.mdx': [
    '---',
    'title: Prose and not',
    '---',
    '',
    '<div id="prose">',
    '<h2>Kettle settings</h2>',
    '<ul><li>Boil first</li></ul>',
    '<p>Pour slowly, see <a href="/other">the other page</a>.</p>',
    '</div>',
    '',
    '<div id="bare" className="not-prose">',
    '<h2>Kettle settings</h2>',
    '<ul><li>Boil first</li></ul>',
    '<p>Pour slowly, see <a href="/other">the other page</a>.</p>',
    '</div>',
    '',
  ].join('\n'),
  'other.mdx': '---\ntitle: Other\n---\n\nElsewhere.\n',
};

const test = browserSuite(SITE);

type Styles = Record<string, string>;

test('content inside not-prose is free of the prose typography; the same elements outside keep it', async (t) => {
  const page = await t.context.browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(pathToFileURL(join(t.context.out, 'index.html')).href, { waitUntil: 'load' });
  const styles = (await page.evaluate(`(() => {
    const read = (root) => {
      const q = (s) => getComputedStyle(document.querySelector('#' + root + ' ' + s));
      const h2 = q('h2'), ul = q('ul'), p = q('p:has(> a)'), a = q('p > a'), body = getComputedStyle(document.querySelector('.enclave-content'));
      return {
        h2Size: h2.fontSize, h2Top: h2.marginTop, h2Weight: h2.fontWeight,
        ulList: ul.listStyleType, ulPad: ul.paddingLeft, ulTop: ul.marginTop,
        pTop: p.marginTop,
        aColor: a.color, aLine: a.textDecorationLine, bodyColor: body.color,
      };
    };
    return { prose: read('prose'), bare: read('bare') };
  })()`)) as { prose: Styles; bare: Styles };
  const { prose, bare } = styles;
  // Outside: the theme's prose.
  t.is(prose.h2Size, '24.8px');
  t.not(prose.h2Top, '0px');
  t.is(prose.ulList, 'disc');
  t.not(prose.ulPad, '0px');
  t.not(prose.pTop, '0px');
  t.is(prose.aLine, 'underline');
  t.not(prose.aColor, prose.bodyColor);
  // Inside not-prose: what hosted Tailwind's preflight leaves.
  t.is(bare.h2Size, '16px');
  t.is(bare.h2Top, '0px');
  t.is(bare.h2Weight, '400');
  t.is(bare.ulList, 'none');
  t.is(bare.ulPad, '0px');
  t.is(bare.ulTop, '0px');
  t.is(bare.pTop, '0px');
  t.is(bare.aLine, 'none');
  t.is(bare.aColor, bare.bodyColor);
  await page.close();
});
