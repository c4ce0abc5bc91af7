import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { browserSuite } from './browserSuite.js';

const test = browserSuite(join(import.meta.dirname, 'fixtures', 'switcher-site'));

/** Opens an exported page from disk at desktop width. */
async function open(t: { context: { browser: Browser; out: string } }, path: string) {
  const context = await t.context.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(pathToFileURL(join(t.context.out, `${path}.html`)).href);
  return { page, context };
}
const at = (url: string, out: string) => decodeURIComponent(new URL(url).pathname).slice(pathToFileURL(out).pathname.length + 1);

test('switching language in the top bar keeps the page, or lands on its nearest ancestor', async (t) => {
  const { page, context } = await open(t, 'guides/start');
  const switcher = page.locator('.enclave-topbar .enclave-language-switcher');
  await switcher.locator('summary').click();
  await switcher.getByRole('link', { name: 'Français' }).click();
  await page.waitForURL(/fr\/guides\/start\.html$/);
  t.is(at(page.url(), t.context.out), 'fr/guides/start.html');
  t.is(await page.locator('h1').first().textContent(), 'Premiers pas');

  await page.goto(pathToFileURL(join(t.context.out, 'guides/deep/one.html')).href);
  await switcher.locator('summary').click();
  await switcher.getByRole('link', { name: 'Français' }).click();
  await page.waitForURL(/fr\/guides\.html$/);
  t.is(await page.locator('h1').first().textContent(), 'Guides');
  await context.close();
});

test('switching version in the sidebar keeps the page; a hidden version is not offered', async (t) => {
  const { page, context } = await open(t, 'guides/start');
  const versions = page.locator('#enclave-sidebar details.enclave-switcher:not(.enclave-switcher-mobile)');
  await versions.locator('summary').click();
  t.deepEqual(await versions.getByRole('link').allTextContents(), ['v2', 'v1']);
  await versions.getByRole('link', { name: 'v1' }).click();
  await page.waitForURL(/v1\/guides\/start\.html$/);
  t.is(await page.locator('h1').first().textContent(), 'Getting started v1');
  await context.close();
});
