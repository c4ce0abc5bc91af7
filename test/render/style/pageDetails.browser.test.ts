import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { browserSuite } from '../browserSuite.js';

const SITE = {
  'docs.json': JSON.stringify({ name: 'Details', colors: { primary: '#0D9373' }, navigation: { pages: ['index', 'changelog', 'table'] } }),
  'index.mdx': [
    '---',
    'title: Details',
    '---',
    '',
    '<CodeGroup>',
    '',
    '```bash setup.sh',
    'echo one',
    '',
    'echo two',
    '```',
    '',
    '```python run.py',
    'print(1)',
    '```',
    '',
    '</CodeGroup>',
    '',
    '```js',
    'const a = 1;',
    '',
    '',
    'const b = 2;',
    '```',
    '',
    '```mermaid',
    'graph TD',
    '  Start --> Finish',
    '```',
    '',
  ].join('\n'),
  'changelog.mdx': [
    '---',
    'title: Changelog',
    '---',
    '',
    '<Update label="March 2026" description="v2.0">',
    '',
    '## Breaking',
    '',
    'Renamed things.',
    '',
    '</Update>',
    '',
    '<Update label="February 2026" description="v1.9">',
    '',
    'Fixed things.',
    '',
    '</Update>',
    '',
  ].join('\n'),
  // A narrow wrapper that breaks words anywhere, as authors write around wide tables.
  'table.mdx': [
    '---',
    'title: Table',
    '---',
    '',
    "<div style={{ wordBreak: 'break-word', width: '12rem' }}>",
    '',
    '| Configuration | Authentication | Description |',
    '| --- | --- | --- |',
    '| a longer cell that may wrap | yes | none |',
    '',
    '</div>',
    '',
  ].join('\n'),
};

const test = browserSuite(SITE);

async function openPage(t: { context: { out: string; browser: Browser } }, rel: string, width = 1280) {
  const page = await t.context.browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(pathToFileURL(join(t.context.out, rel)).href, { waitUntil: 'load' });
  return page;
}

test('a code group draws one frame, not a frame inside a frame', async (t) => {
  const page = await openPage(t, 'index.html');
  const framed = await page.evaluate(`[document.querySelector('.enclave-codegroup'), ...document.querySelectorAll('.enclave-codegroup *')]
    .filter((e) => e.offsetParent && !e.matches('button, button *') && parseFloat(getComputedStyle(e).borderTopWidth) > 0 && getComputedStyle(e).borderTopStyle !== 'none')
    .map((e) => e.className)`);
  t.deepEqual(framed, ['enclave-tabs enclave-codegroup']);
  await page.close();
});

test('blank code lines are as tall as the others', async (t) => {
  const page = await openPage(t, 'index.html');
  const heights = (await page.evaluate(
    `[...document.querySelectorAll('.enclave-code:not(.enclave-codegroup .enclave-code) .line')].map((l) => [l.textContent, l.getBoundingClientRect().height])`,
  )) as [string, number][];
  t.is(heights.length, 4);
  t.is(heights.filter(([text]) => text === '').length, 2);
  t.true(heights[0][1] > 10);
  for (const [, h] of heights) t.is(h, heights[0][1]);
  await page.close();
});

test('Mermaid diagrams get zoom and pan controls that change the view', async (t) => {
  const page = await openPage(t, 'index.html');
  await page.locator('.enclave-mermaid[data-rendered] svg').waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  t.is(await page.locator('.enclave-mermaid').getAttribute('data-zoom'), '156');
  // Centred in the viewport (instantly: the theme scrolls smoothly), so the pointer lands on it.
  await page.locator('.enclave-mermaid-svg').evaluate((e) => e.scrollIntoView({ block: 'center', behavior: 'instant' }));
  const box = (await page.locator('.enclave-mermaid-svg').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 10, { steps: 4 });
  await page.mouse.up();
  t.regex(
    await page.locator('.enclave-mermaid svg').evaluate((s) => (s as SVGElement).style.transform),
    /^translate\(40px, ?10px\) scale\(1\.5625\)$/,
  );
  await page.getByRole('button', { name: 'Reset view' }).click();
  t.is(await page.locator('.enclave-mermaid').getAttribute('data-zoom'), '100');
  await page.close();
});

test("the changelog's table of contents lists each Update by its label (not the headings inside)", async (t) => {
  const html = await readFile(join(t.context.out, 'changelog.html'), 'utf8');
  const toc = html.slice(html.indexOf('<aside class="enclave-toc"'), html.indexOf('</aside>'));
  t.deepEqual(
    [...toc.matchAll(/<a href="#([^"]+)">([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]),
    [
      ['march-2026', 'March 2026'],
      ['february-2026', 'February 2026'],
    ],
  );
});

test('table headers wrap between words, never inside one, even where the content breaks words', async (t) => {
  const page = await openPage(t, 'table.html');
  const split = (await page.evaluate(`[...document.querySelectorAll('.enclave-content th')].flatMap((th) => {
    const text = th.firstChild;
    return [...text.data.matchAll(/\\S+/g)].flatMap((m) => {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      // A word split across lines has one box per line.
      return range.getClientRects().length > 1 ? [m[0]] : [];
    });
  })`)) as string[];
  t.is(await page.locator('.enclave-content th').count(), 3);
  t.deepEqual(split, []);
  // The body cells still wrap (the wrapper applies there).
  t.true(
    (await page
      .locator('.enclave-content td')
      .first()
      .evaluate((td) => td.getClientRects()[0].height)) > 30,
  );
  await page.close();
});
