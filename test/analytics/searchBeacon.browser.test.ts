import test, { type ExecutionContext } from 'ava';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { renderFilesAndZip } from '../render/renderFixture.js';
import { launchBrowser } from '../helpers/browser.js';
import { startTestAppliance } from '../helpers/testAppliance.js';

const DOMAIN = 'search-docs.test';

/** A tiny docs site rendered by the real renderer, into a folder and a bundle zip. */
function renderDocs(t: ExecutionContext): Promise<{ src: string; out: string; zip: string }> {
  const docsJson = {
    name: 'Search Docs',
    theme: 'mint',
    colors: { primary: '#16A34A' },
    navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/install'] }] },
  };
  return renderFilesAndZip(
    t,
    {
      'docs.json': JSON.stringify(docsJson),
      'index.mdx': '---\ntitle: Welcome\n---\n\nHello readers.\n',
      'guides/install.mdx': '---\ntitle: Installing the gadget\n---\n\nRun the gadget installer, then restart.\n',
    },
    { domain: DOMAIN },
  );
}

/** Opens `url`, collecting page errors and console errors. */
async function openPage(browser: Browser, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A failed load is named by its URL (the console line doesn't say which); the browser's own favicon request isn't the page's doing.
  page.on('response', (r) => {
    if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) errors.push(`${r.status()} ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  await page.goto(url);
  return { page, errors };
}

/** Opens search with the keyboard, types `query` and waits for results to settle. */
async function search(page: Page, query: string): Promise<void> {
  await page.keyboard.press('Control+K');
  await page.locator('#enclave-search-input').fill(query);
  await page
    .locator('#enclave-search-status')
    .filter({ hasText: /result/ })
    .waitFor({ timeout: 10_000 });
  await page.waitForTimeout(1200); // past the 800 ms settle delay
}

test('search beacons from real Chromium on the served bundle: a settled query with its result count, the result clicked, and a query with no results', async (t) => {
  const { src, zip } = await renderDocs(t);
  const app = await startTestAppliance({ serveSample: false });
  t.teardown(() => app.close());
  await app.control.sites.upsert({ domain: DOMAIN, source: src, ref: null, projectId: app.projectId, createdAt: new Date().toISOString() });
  await app.features.deployments.activateBundleFile(zip, { source: 'test' });
  const browser = await launchBrowser();
  t.teardown(() => browser.close());

  const { page, errors } = await openPage(browser, `${app.url}/`);
  await search(page, 'gadget');
  await Promise.all([page.waitForURL(/guides\/install/), page.keyboard.press('Enter')]);
  const second = await openPage(browser, `${app.url}/guides/install`);
  await search(second.page, 'zebra crossing');
  await second.page.keyboard.press('Escape');

  let body: {
    searches: { searchQuery: string; hits: number; ctr: number; topClickedPage: string | null; results: number }[];
    totalSearches: number;
  } = { searches: [], totalSearches: 0 };
  for (let i = 0; i < 50 && body.totalSearches < 2; i++) {
    await new Promise((r) => setTimeout(r, 100));
    body = (await (await app.api(`/v1/analytics/${app.projectId}/searches`)).json()) as typeof body;
  }
  t.is(body.totalSearches, 2);
  t.like(
    body.searches.find((s) => s.searchQuery === 'gadget'),
    { hits: 1, ctr: 1, topClickedPage: '/guides/install', results: 1 },
  );
  t.like(
    body.searches.find((s) => s.searchQuery === 'zebra crossing'),
    { hits: 1, ctr: 0, topClickedPage: null, results: 0 },
  );
  const views = (await (await app.api(`/v1/analytics/${app.projectId}/views`)).json()) as { totals: { human: number } };
  // `/` and `/guides/install`; opening `/guides/install` again is a repeat by the same visitor (one view).
  t.true(views.totals.human >= 2, 'the pages the browser loaded were counted as human views');
  t.deepEqual([...errors, ...second.errors], []);
});

test('from file:// and from another web server the search box sends nothing and logs no error', async (t) => {
  const { out } = await renderDocs(t);
  const posts: string[] = [];
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };
  // A plain static web server: no Enclave behind it.
  const server: Server = createServer(async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') posts.push(`${req.method} ${req.url}`);
    const rel = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^\/+/, '') || 'index.html';
    for (const candidate of [rel, `${rel}.html`]) {
      try {
        const data = await readFile(join(out, candidate));
        res.writeHead(200, { 'Content-Type': types[extname(candidate)] ?? 'application/octet-stream' });
        res.end(req.method === 'HEAD' ? undefined : data);
        return;
      } catch {
        // next form
      }
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const browser = await launchBrowser();
  t.teardown(() => browser.close());

  for (const url of [`file://${join(out, 'index.html')}`, `http://127.0.0.1:${(server.address() as { port: number }).port}/`]) {
    const { page, errors } = await openPage(browser, url);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' || r.url().includes('_enclave')) sent.push(r.url());
    });
    await search(page, 'gadget');
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
    t.deepEqual(sent, [], url);
    // The feedback widget's own probe of /_enclave/health (feedback.js, not the search box) 404s on a foreign server.
    t.deepEqual(
      errors.filter((e) => !e.endsWith('/_enclave/health')),
      [],
      url,
    );
  }
  t.deepEqual(posts, []);
});
