import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import anyTest, { type TestFn } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { openFolderSink } from '../../src/bundle/openFolderSink.js';
import { renderSite } from '../../src/render/renderSite.js';
import { launchBrowser } from '../helpers/browser.js';

const test = anyTest as TestFn<{ out: string; browser: Browser; root: string }>;

test.before(async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'enclave-browser-'));
  const out = join(root, 'site');
  await renderSite({
    sourceDir: join(process.cwd(), 'examples/sample-docs'),
    out: await openFolderSink(out),
    domain: 'docs.example.com',
    jobId: 'browser',
    now: new Date('2026-01-01T00:00:00Z'),
    generatorVersion: 'test',
  });
  t.context = { out, root, browser: await launchBrowser() };
});

test.after.always(async (t) => {
  await t.context.browser?.close();
  if (t.context.root) await rm(t.context.root, { recursive: true, force: true });
});

/** Opens a bundle page from file:// in a fresh context, recording every request and every console error. */
async function open(t: { context: { out: string; browser: Browser } }, rel: string, colorScheme: 'light' | 'dark' = 'light') {
  const context = await t.context.browser.newContext({ colorScheme });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(join(t.context.out, rel)).href);
  return { page, context, requests, errors };
}

const offOrigin = (requests: string[]) => requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:'));

test('sidebar navigation works from file:// with no request leaving the origin and no console errors', async (t) => {
  const { page, context, requests, errors } = await open(t, 'index.html');
  t.is(await page.locator('h1').textContent(), 'Enclave');
  await page.locator('#enclave-sidebar a', { hasText: 'Bundles' }).click();
  await page.waitForURL(/concepts\/bundles\.html$/);
  t.is(await page.locator('h1').textContent(), 'Bundles');
  t.is(await page.locator('#enclave-sidebar a[aria-current="page"]').textContent(), 'Bundles');
  // Back to the root through a relative link from depth 1.
  await page.locator('.enclave-logo').click();
  await page.waitForURL(/\/index\.html$/);
  await page.goto(pathToFileURL(join(t.context.out, 'concepts/versions.html')).href);
  await page.waitForLoadState('load');
  t.deepEqual(offOrigin(requests), []);
  t.deepEqual(errors, []);
  await context.close();
});

test('dark mode toggles, follows prefers-color-scheme, and remembers the choice', async (t) => {
  const { page, context } = await open(t, 'quickstart.html');
  t.is(await page.getAttribute('html', 'data-theme'), 'light');
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const lightBg = await bg();
  await page.click('.enclave-theme-toggle');
  t.is(await page.getAttribute('html', 'data-theme'), 'dark');
  t.is(await page.getAttribute('.enclave-theme-toggle', 'aria-pressed'), 'true');
  t.not(await bg(), lightBg);
  await page.reload();
  t.is(await page.getAttribute('html', 'data-theme'), 'dark', 'choice survives a reload');
  await context.close();

  const prefersDark = await open(t, 'quickstart.html', 'dark');
  t.is(await prefersDark.page.getAttribute('html', 'data-theme'), 'dark');
  await prefersDark.context.close();
});

test('search opens with Ctrl+K, finds a term, and Enter opens the right page', async (t) => {
  const { page, context, requests, errors } = await open(t, 'concepts/bundles.html');
  t.true(await page.locator('#enclave-search').isHidden());
  await page.keyboard.press('Control+k');
  await page.locator('#enclave-search-input').fill('roll back');
  const first = page.locator('#enclave-search-results [role="option"]').first();
  await first.waitFor();
  t.regex((await first.textContent()) ?? '', /Roll back/);
  t.is(await first.getAttribute('aria-selected'), 'true');
  t.is(await page.getAttribute('#enclave-search-input', 'aria-activedescendant'), await first.getAttribute('id'));
  await page.keyboard.press('Enter');
  await page.waitForURL(/deploy\/rollback\.html$/);
  t.is(await page.locator('h1').textContent(), 'Roll back');
  t.true(
    requests.some((u) => /_assets\/search-index\.js$/.test(u)),
    'index loaded lazily as a script',
  );
  t.deepEqual(offOrigin(requests), []);
  t.deepEqual(errors, []);

  await page.keyboard.press('/');
  await page.locator('#enclave-search-input').fill('zzzz-nothing');
  // A new page loads the index anew: the status reads "Loading search index…" until it is in.
  await page.waitForFunction(() => !/Loading/.test(document.querySelector('#enclave-search-status')?.textContent ?? ''));
  t.regex((await page.locator('#enclave-search-status').textContent()) ?? '', /No results/);
  await page.keyboard.press('Escape');
  t.true(await page.locator('#enclave-search').isHidden());
  await context.close();
});

const AUDIT_SOURCE = readFileSync(new URL('../helpers/a11yAudit.browser.js', import.meta.url), 'utf8');

/** Accessibility facts of the current page, computed in the browser from the DOM and computed styles. */
function audit(page: Page): Promise<{
  banner: number;
  main: number;
  navs: number;
  contentinfo: number;
  skipLink: boolean;
  h1: number;
  skips: number;
  imagesWithoutAlt: number;
  unlabelledControls: string[];
  lowContrast: string[];
}> {
  return page.evaluate(AUDIT_SOURCE);
}

for (const rel of ['index.html', 'quickstart.html', 'configuration/overview.html']) {
  test(`accessibility of ${rel}: landmarks, one h1, no skipped levels, alt text, labels, contrast (light and dark)`, async (t) => {
    for (const scheme of ['light', 'dark'] as const) {
      const { page, context } = await open(t, rel, scheme);
      const a = await audit(page);
      t.is(a.banner, 1, `${scheme}: banner`);
      t.is(a.main, 1, `${scheme}: main`);
      t.true(a.navs >= 2, `${scheme}: navigation landmarks`);
      t.is(a.contentinfo, 1, `${scheme}: contentinfo`);
      t.true(a.skipLink, `${scheme}: skip link`);
      t.is(a.h1, 1, `${scheme}: exactly one h1`);
      t.is(a.skips, 0, `${scheme}: heading levels`);
      t.is(a.imagesWithoutAlt, 0, `${scheme}: alt text`);
      t.deepEqual(a.unlabelledControls, [], `${scheme}: labelled controls`);
      t.deepEqual(a.lowContrast, [], `${scheme}: text contrast`);
      await context.close();
    }
  });
}
