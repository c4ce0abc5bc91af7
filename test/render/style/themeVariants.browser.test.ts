import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import { SITE_THEMES } from '../../../src/render/config/SiteConfig.js';
import { launchBrowser } from '../../helpers/browser.js';
import { renderFiles } from '../renderFixture.js';

const site = (theme: unknown) => ({
  'docs.json': JSON.stringify({
    theme,
    name: 'Themed',
    colors: { primary: '#0D9373' },
    navigation: { groups: [{ group: 'Start', pages: ['index', 'next'] }] },
  }),
  'index.mdx': '---\ntitle: Home\n---\n\n## Section\n\nText.\n\n```js\nconst a = 1;\n```\n',
  'next.mdx': '# Next\n',
});

/** Computed styles that together tell the variants apart. */
const LOOK: [string, string][] = [
  ['body', 'font-family'],
  ['body', 'font-size'],
  ['body', 'background-color'],
  ['.enclave-layout', 'grid-template-columns'],
  ['.enclave-sidebar', 'background-color'],
  ['.enclave-main', 'border-top-width'],
  ['.enclave-header', 'border-bottom-width'],
  ['.enclave-search-button', 'border-top-left-radius'],
  ['.enclave-page-header h1', 'font-weight'],
  ['.enclave-sidebar a[aria-current="page"]', 'border-top-left-radius'],
];

test('docs.json theme names become a class on <html>; an unknown name falls back to mint with a warning', async (t) => {
  const { out, result } = await renderFiles(t, site('linden'));
  t.regex(await readFile(join(out, 'index.html'), 'utf8'), /<html lang="en" class="enclave-theme-linden"/);
  const odd = await renderFiles(t, site('bamboo'));
  t.regex(await readFile(join(odd.out, 'index.html'), 'utf8'), /class="enclave-theme-mint"/);
  t.true(odd.result.report.warnings.some((w) => w.message.includes('"bamboo"') && w.message.includes('using mint')));
  t.false(result.report.warnings.some((w) => w.message.includes('theme')));
});

test('in real Chromium every theme looks different from every other (layout, shape or type)', async (t) => {
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const looks = new Map<string, string>();
  for (const theme of SITE_THEMES) {
    const { out } = await renderFiles(t, site(theme));
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(pathToFileURL(join(out, 'index.html')).href);
    // No named helper inside evaluate: tsx would wrap it in a __name() the page doesn't have.
    const look = await page.evaluate(
      (pairs) => pairs.map(([sel, prop]) => getComputedStyle(document.querySelector(sel)!).getPropertyValue(prop)).join(' | '),
      LOOK,
    );
    await page.close();
    const twin = [...looks].find(([, l]) => l === look);
    t.is(twin, undefined, `${theme} looks exactly like ${twin?.[0]}`);
    looks.set(theme, look);
  }
  t.is(looks.size, SITE_THEMES.length);
  t.regex(looks.get('mint')!, /^"Inter Variable"/, 'the default font is the bundled Inter');
  t.regex(looks.get('linden')!, /monospace/);
});
