import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import anyTest, { type TestFn } from 'ava';
import type { Browser } from 'playwright-core';
import { createZipSink } from '../../../src/bundle/zip/createZipSink.js';
import { renderSite } from '../../../src/render/renderSite.js';
import { launchBrowser } from '../../helpers/browser.js';
import { recordOffOrigin } from '../../helpers/recordOffOrigin.js';
import { serveStaticFolder } from '../../helpers/serveStaticFolder.js';
import { startTestAppliance } from '../../helpers/testAppliance.js';
import { renderFilesForSuite } from '../renderFixture.js';
import { REMOTE_SITE } from './remoteSite.js';

const test = anyTest as TestFn<{
  src: string;
  out: string;
  browser: Browser;
  server: { close(): Promise<void> };
  http: string;
  remove(): Promise<void>;
}>;

const MANY = Array.from({ length: 60 }, (_, i) => `guides/p${String(i).padStart(2, '0')}`);

/** The remote-heavy site, plus a light/dark image pair in Tailwind classes and a long sidebar. */
const SITE: Record<string, string> = {
  ...REMOTE_SITE,
  'docs.json': JSON.stringify({
    ...JSON.parse(REMOTE_SITE['docs.json']),
    navigation: {
      groups: [
        { group: 'Start', pages: ['index', 'guides/media', 'pair'] },
        { group: 'Many', pages: MANY },
      ],
    },
  }),
  'pair.mdx': [
    '---',
    'title: Pair',
    '---',
    '',
    '<div className="flex gap-4">',
    '<img className="block dark:hidden" src="/pair/light.svg" alt="Light diagram" />',
    '<img className="hidden dark:block" src="/pair/dark.svg" alt="Dark diagram" />',
    '</div>',
    '',
  ].join('\n'),
  'pair/light.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#fff"/></svg>',
  'pair/dark.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#000"/></svg>',
  ...Object.fromEntries(
    MANY.map((p, i) => [
      `${p}.mdx`,
      `---\ntitle: Page ${i}\n---\n\n${'A paragraph of text to make the page long enough to scroll. '.repeat(40)}\n\n## Later\n\nMore.\n`,
    ]),
  ),
};

test.before(async (t) => {
  const { src, out, remove } = await renderFilesForSuite(SITE);
  const server = await serveStaticFolder(out);
  t.context = { src, out, browser: await launchBrowser(), server, http: server.url, remove };
});

test.after.always(async (t) => {
  await t.context.browser?.close();
  await t.context.server?.close();
  await t.context.remove?.();
});

const PAGES = ['index.html', 'guides/media.html', 'pair.html', `${MANY[55]}.html`];

for (const where of ['file://', 'a static web server'] as const) {
  test(`from ${where}, no page makes a request to another origin and the console stays clean`, async (t) => {
    const base = where === 'file://' ? pathToFileURL(`${t.context.out}/`).href : t.context.http;
    const origin = where === 'file://' ? 'file://' : t.context.http;
    const context = await t.context.browser.newContext();
    t.teardown(() => context.close());
    const { outbound, seen } = await recordOffOrigin(context, origin);
    const errors: string[] = [];
    for (const rel of PAGES) {
      const page = await context.newPage();
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(`${rel}: ${m.text()}`);
      });
      page.on('pageerror', (e) => errors.push(`${rel}: ${String(e)}`));
      await page.goto(new URL(rel, base).href, { waitUntil: 'load' });
      await page.waitForTimeout(300);
      await page.close();
    }
    t.deepEqual(outbound, []);
    t.deepEqual(errors, []);
    t.true(
      seen.some((u) => u.includes('/_assets/inter/')),
      'the bundled Inter font is loaded',
    );
    t.true(
      seen.some((u) => u.endsWith('/local.js')),
      'the harmless custom script still runs',
    );
    // Not served by Enclave: the feedback widget never probes its health endpoint (it would 404).
    t.false(seen.some((u) => u.includes('/_enclave/health')));
  });
}

test('served by the appliance, no page makes a request to another origin, and the feedback widget appears', async (t) => {
  const zipPath = join(t.context.out, '..', 'site.zip');
  const zip = createZipSink();
  await renderSite({
    sourceDir: t.context.src,
    out: zip,
    domain: 'outbound.test',
    jobId: 'se_0000000000000001',
    now: new Date(),
    generatorVersion: 'test',
  });
  await zip.finish(zipPath, new Date());
  const app = await startTestAppliance({ serveSample: false });
  t.teardown(() => app.close());
  await app.control.sites.upsert({
    domain: 'outbound.test',
    source: t.context.src,
    ref: null,
    projectId: app.projectId,
    createdAt: new Date().toISOString(),
  });
  await app.features.deployments.activateBundleFile(zipPath, { source: 'test' });
  const context = await t.context.browser.newContext();
  t.teardown(() => context.close());
  const origin = `${app.url}/`;
  const { outbound } = await recordOffOrigin(context, origin);
  for (const rel of ['', 'guides/media', 'pair']) {
    const page = await context.newPage();
    await page.goto(`${origin}${rel}`, { waitUntil: 'load' });
    if (rel === '') await page.locator('.enclave-feedback button').first().waitFor({ timeout: 10_000 });
    await page.close();
  }
  t.deepEqual(outbound, []);
});

test('a page deep in a long sidebar opens at the top; the sidebar, not the window, scrolls to the current page', async (t) => {
  const context = await t.context.browser.newContext({ viewport: { width: 1280, height: 700 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto(new URL(`${MANY[55]}.html`, t.context.http).href, { waitUntil: 'load' });
  await page.waitForTimeout(200);
  t.is(await page.evaluate(() => window.scrollY), 0);
  t.true((await page.evaluate(() => document.getElementById('enclave-sidebar')!.scrollTop)) > 0);
  const inView = await page.evaluate(() => {
    const bar = document.getElementById('enclave-sidebar')!.getBoundingClientRect();
    const a = document.querySelector('#enclave-sidebar a[aria-current="page"]')!.getBoundingClientRect();
    return a.top >= bar.top && a.bottom <= bar.bottom;
  });
  t.true(inView, 'the current page is visible in the sidebar');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the light/dark image pair written with Tailwind classes shows only the ${scheme} image in ${scheme} mode`, async (t) => {
    const context = await t.context.browser.newContext({ colorScheme: scheme });
    t.teardown(() => context.close());
    const page = await context.newPage();
    await page.goto(pathToFileURL(join(t.context.out, 'pair.html')).href, { waitUntil: 'load' });
    t.is(await page.evaluate(() => document.documentElement.getAttribute('data-theme')), scheme);
    t.is(await page.locator('img[alt="Light diagram"]').isVisible(), scheme === 'light');
    t.is(await page.locator('img[alt="Dark diagram"]').isVisible(), scheme === 'dark');
    t.is(await page.locator('.enclave-content .flex').evaluate((el) => getComputedStyle(el).display), 'flex');
  });
}

test('switching the theme with the toggle flips the pair (dark: follows the theme switch, not only the OS)', async (t) => {
  const context = await t.context.browser.newContext({ colorScheme: 'light' });
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto(pathToFileURL(join(t.context.out, 'pair.html')).href, { waitUntil: 'load' });
  await page.locator('.enclave-theme-toggle').click();
  t.is(await page.evaluate(() => document.documentElement.getAttribute('data-theme')), 'dark');
  t.false(await page.locator('img[alt="Light diagram"]').isVisible());
  t.true(await page.locator('img[alt="Dark diagram"]').isVisible());
});
