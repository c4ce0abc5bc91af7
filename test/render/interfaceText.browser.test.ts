import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { browserSuite } from './browserSuite.js';

const test = browserSuite(join(import.meta.dirname, 'fixtures', 'switcher-site'));

async function open(t: { context: { browser: Browser; out: string } }, path: string, width = 1280) {
  const context = await t.context.browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  await page.goto(pathToFileURL(join(t.context.out, `${path}.html`)).href);
  return { page, context };
}

test('a French page speaks French: table of contents, search, previous/next, and the search dialog', async (t) => {
  const { page, context } = await open(t, 'fr/guides');
  t.is(await page.locator('#enclave-toc-title').textContent(), 'Sur cette page');
  t.is(await page.locator('.enclave-search-button span').textContent(), 'Rechercher…');
  t.deepEqual(await page.locator('.enclave-pagination small').allTextContents(), ['Précédent', 'Suivant']);
  await page.locator('.enclave-search-button').click();
  const input = page.locator('#enclave-search-input');
  t.is(await input.getAttribute('placeholder'), 'Rechercher…');
  await input.fill('zzzqqq');
  await page.waitForFunction(() => document.getElementById('enclave-search-status')?.textContent?.includes('zzzqqq'));
  t.is(await page.locator('#enclave-search-status').textContent(), 'Aucun résultat pour « zzzqqq ».');
  t.is((await page.locator('.enclave-search-scope').textContent())?.trim(), 'Rechercher dans toutes les langues, versions et produits');
  await input.fill('premiers');
  await page.waitForFunction(() => /résultat/.test(document.getElementById('enclave-search-status')?.textContent ?? ''));
  t.is(await page.locator('#enclave-search-status').textContent(), '1 résultat');
  await context.close();
});

test('the phone-width menu button is labelled in the page language, open and closed', async (t) => {
  const { page, context } = await open(t, 'fr/guides/start', 390);
  const menu = page.locator('.enclave-menu-toggle');
  t.is(await menu.getAttribute('aria-label'), 'Ouvrir la navigation');
  await menu.click();
  t.is(await menu.getAttribute('aria-label'), 'Fermer la navigation');
  await context.close();
});

test('an English page of the same site keeps the English text and carries no text block', async (t) => {
  const { page, context } = await open(t, 'guides/start');
  t.is(await page.locator('#enclave-toc-title').textContent(), 'On this page');
  t.is(await page.locator('#enclave-interface-text').count(), 0);
  await page.locator('.enclave-search-button').click();
  await page.locator('#enclave-search-input').fill('zzzqqq');
  await page.waitForFunction(() => document.getElementById('enclave-search-status')?.textContent?.includes('zzzqqq'));
  t.is(await page.locator('#enclave-search-status').textContent(), 'No results for “zzzqqq”.');
  await context.close();
});

test('the feedback widget asks and answers in the page language', async (t) => {
  const context = await t.context.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // The site as an Enclave server would serve it: the page mark and a health probe that answers.
  await page.route('http://docs.test/**', async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/_enclave/health') return route.fulfill({ json: { status: 'ok' } });
    const body = await readFile(join(t.context.out, decodeURIComponent(path))).catch(() => undefined);
    if (!body) return route.fulfill({ status: 404 });
    const type = path.endsWith('.html')
      ? 'text/html'
      : path.endsWith('.js')
        ? 'text/javascript'
        : path.endsWith('.css')
          ? 'text/css'
          : 'application/octet-stream';
    return route.fulfill({ body, headers: { 'Content-Type': type, 'X-Enclave-Site': '1' } });
  });
  await page.goto('http://docs.test/fr/guides.html');
  const widget = page.locator('#enclave-feedback');
  await widget.locator('.enclave-feedback-title').waitFor();
  t.is(await widget.locator('.enclave-feedback-title').textContent(), 'Cette page vous a-t-elle été utile ?');
  t.deepEqual(await widget.locator('.enclave-feedback-choice').allTextContents(), ['Oui', 'Non']);
  await context.close();
});
