import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import anyTest, { type TestFn } from 'ava';
import type { Browser } from 'playwright-core';
import { createZipSink } from '../../src/bundle/zip/createZipSink.js';
import { openFolderSink } from '../../src/bundle/openFolderSink.js';
import { siteSecurityPolicy } from '../../src/features/deployments/site/siteSecurityPolicy.js';
import { renderSite } from '../../src/render/renderSite.js';
import { launchBrowser } from '../helpers/browser.js';
import { startTestAppliance } from '../helpers/testAppliance.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
const test = anyTest as TestFn<{
  root: string;
  out: string;
  longOut: string;
  browser: Browser;
  site: Server;
  siteUrl: string;
  api: Server;
  apiUrl: string;
  seen: Seen[];
}>;

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

test.before(async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'enclave-navbrowser-'));
  const render = async (src: string, out: string) =>
    renderSite({
      sourceDir: src,
      out: await openFolderSink(out),
      domain: 'docs.example.com',
      jobId: 'nav',
      now: new Date('2026-01-01T00:00:00Z'),
      generatorVersion: 'test',
    });
  await cp(join(import.meta.dirname, 'fixtures', 'nav-site'), join(root, 'src'), { recursive: true });
  const out = join(root, 'site');
  await render(join(root, 'src'), out);

  // A long sidebar, to check that opening a page far down it leaves the window at the top.
  const { writeFile, mkdir } = await import('node:fs/promises');
  const long = join(root, 'long');
  await mkdir(join(long, 'p'), { recursive: true });
  const pages = Array.from({ length: 90 }, (_, i) => `p/page-${i}`);
  await writeFile(join(long, 'docs.json'), JSON.stringify({ name: 'Long', navigation: { groups: [{ group: 'All', pages }] } }));
  for (const p of pages) await writeFile(join(long, `${p}.mdx`), `---\ntitle: Page ${p.slice(7)}\n---\n\n${'Some text.\n\n'.repeat(40)}`);
  const longOut = join(root, 'long-site');
  await render(long, longOut);

  // The bundle over http, with the appliance's CSP: connect-src widened only on the pages the
  // manifest lists with "Try it", to their spec's servers plus the test API (as an operator's
  // staticExport.tryItOrigins would).
  const manifest = JSON.parse(await readFile(join(out, '_enclave/manifest.json'), 'utf8')) as {
    pages: { file: string; tryIt?: { connect: string[] } }[];
  };
  const tryItPages = new Map(manifest.pages.flatMap((p) => (p.tryIt ? [[p.file, p.tryIt.connect] as const] : [])));
  let apiOrigin = '';
  const site = createServer(async (req, res) => {
    const rel = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^[/\\]+/, '') || 'index.html';
    try {
      const data = await readFile(join(out, rel));
      res.setHeader('Content-Type', TYPES[extname(rel)] ?? 'application/octet-stream');
      if (rel.endsWith('.html'))
        res.setHeader(
          'Content-Security-Policy',
          siteSecurityPolicy([], { connect: tryItPages.has(rel) ? [...(tryItPages.get(rel) ?? []), apiOrigin] : undefined }),
        );
      res.end(data);
    } catch {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  // The API the reader points the playground at: answers with CORS, records what it got.
  const seen: Seen[] = [];
  const api = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Allow-Headers', '*');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      if (req.method === 'OPTIONS') return res.end();
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ users: [{ id: 'u1' }], got: req.url }));
    });
  });
  const apiUrl = await listen(api);
  apiOrigin = apiUrl;
  t.context = {
    root,
    out,
    longOut,
    browser: await launchBrowser(),
    site,
    siteUrl: await listen(site),
    api,
    apiUrl,
    seen,
  };
});

test.after.always(async (t) => {
  await t.context.browser?.close();
  t.context.site?.close();
  t.context.api?.close();
  if (t.context.root) await rm(t.context.root, { recursive: true, force: true });
});

/** Opens a page in a fresh context, recording every request and console error. */
async function open(t: { context: { browser: Browser } }, url: string, viewport = { width: 1400, height: 800 }) {
  const context = await t.context.browser.newContext({ viewport });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  // A failed load is judged by its URL (below), not by the console line that names none.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  // The feedback widget's probe of the appliance and the browser's favicon guess are not ours to judge here.
  page.on('response', (r) => {
    if (r.status() >= 400 && !/\/(?:_enclave\/|favicon\.ico)/.test(r.url())) errors.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(url);
  return { page, context, requests, errors };
}
const fileUrl = (dir: string, rel: string) => pathToFileURL(join(dir, rel)).href;
const notFile = (requests: string[]) => requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:'));

test('the tab bar under a language leads to the API tab; a tab menu opens and its item leads to its own sidebar', async (t) => {
  const { page, context, requests, errors } = await open(t, fileUrl(t.context.out, 'en/index.html'));
  const tabs = page.locator('.enclave-tabs');
  t.true(await tabs.isVisible());
  await tabs.getByRole('link', { name: 'API' }).click();
  await page.waitForURL(/api-reference\/users\/list-users\.html$/);
  t.is(await page.locator('h1').textContent(), 'List users');
  t.is(await page.locator('.enclave-tabs a[aria-current="true"]').textContent(), 'API');

  const menu = page.locator('.enclave-tab-menu summary', { hasText: 'Help' });
  t.false(await page.locator('.enclave-tab-menu').getByRole('link', { name: 'FAQ' }).isVisible(), 'the menu starts closed');
  await menu.click();
  await page.locator('.enclave-tab-menu').getByRole('link', { name: 'FAQ' }).click();
  await page.waitForURL(/en\/help\/faq\.html$/);
  t.is(await page.locator('#enclave-sidebar a[aria-current="page"]').textContent(), 'FAQ');
  t.true(await page.locator('#enclave-sidebar').getByText('Questions').isVisible());
  t.false(await page.locator('#enclave-sidebar').getByText('Welcome').isVisible(), "the menu item's sidebar, not the first tab's");
  t.deepEqual(notFile(requests), []);
  t.deepEqual(errors, []);
  await context.close();
});

test('the language switcher sits in the top bar, shows language names and leads to the other language', async (t) => {
  const { page, context, errors } = await open(t, fileUrl(t.context.out, 'en/install.html'));
  const switcher = page.locator('.enclave-topbar .enclave-language-switcher');
  t.true(await switcher.isVisible());
  t.false(await page.locator('#enclave-sidebar .enclave-switcher-mobile').isVisible(), 'no second switcher in the sidebar');
  t.is((await switcher.locator('summary').textContent())?.replace('language: ', ''), 'English');
  await switcher.locator('summary').click();
  await switcher.getByRole('link', { name: 'Français' }).click();
  await page.waitForURL(/fr\/index\.html$/);
  t.is(await page.getAttribute('html', 'lang'), 'fr');
  t.deepEqual(await page.locator('.enclave-tabs a').allTextContents(), ['Guides', 'API']);
  t.deepEqual(errors, []);
  await context.close();
});

test('at phone width the language switcher is in the navigation menu', async (t) => {
  const { page, context, errors } = await open(t, fileUrl(t.context.out, 'en/install.html'), { width: 390, height: 800 });
  t.false(await page.locator('.enclave-topbar .enclave-language-switcher').isVisible(), 'the top bar has no room for it');
  await page.getByRole('button', { name: 'Open navigation' }).click();
  const switcher = page.locator('#enclave-sidebar .enclave-switcher-mobile');
  t.true(await switcher.isVisible());
  await switcher.locator('summary').click();
  await switcher.getByRole('link', { name: 'Français' }).click();
  await page.waitForURL(/fr\/index\.html$/);
  t.deepEqual(errors, []);
  await context.close();
});

test('a page far down a long sidebar opens at the top of the window, its sidebar link scrolled into view', async (t) => {
  const { page, context } = await open(t, fileUrl(t.context.longOut, 'p/page-80.html'));
  await page.waitForLoadState('load');
  t.is(await page.evaluate(() => window.scrollY), 0);
  const inView = await page.evaluate(() => {
    const bar = document.getElementById('enclave-sidebar')?.getBoundingClientRect();
    const link = document.querySelector('#enclave-sidebar a[aria-current="page"]')?.getBoundingClientRect();
    return !!bar && !!link && link.top >= bar.top && link.bottom <= bar.bottom;
  });
  t.true(inView);
  await context.close();
});

test("search stays in the reader's language unless asked for all, and links to the matching section", async (t) => {
  const { page, context, errors } = await open(t, fileUrl(t.context.out, 'fr/index.html'));
  await page.keyboard.press('Control+k');
  await page.locator('#enclave-search-input').fill('zebrafish');
  const results = page.locator('#enclave-search-results a');
  await results.first().waitFor();
  t.deepEqual(await results.evaluateAll((as) => as.map((a) => a.getAttribute('href'))), ['../fr/index.html#installer']);
  await page.locator('#enclave-search-all').check();
  await page.waitForFunction(() => document.querySelectorAll('#enclave-search-results a').length === 2);
  const hrefs = await results.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  t.deepEqual(hrefs.sort(), ['../en/install.html#verify-the-checksum', '../fr/index.html#installer']);
  t.deepEqual(errors, []);
  await context.close();
});

test.serial('"Try it" sends the request to the server the reader typed, over http under the site CSP, and shows the answer', async (t) => {
  const before = t.context.seen.length;
  const { page, context, requests, errors } = await open(t, `${t.context.siteUrl}/api-reference/users/list-users.html`);
  await page.locator('.enclave-try summary').click();
  await page.locator('[data-try-server]').fill(`${t.context.apiUrl}/v1`);
  await page.locator('[data-try-name="X-Api-Key"]').fill('secret-123');
  await page.locator('[data-try-name="limit"]').fill('5');
  await page.locator('.enclave-try-send').click();
  await page.locator('.enclave-try-status', { hasText: '200' }).waitFor();
  t.regex((await page.locator('.enclave-try-output').textContent()) ?? '', /"id": "u1"/);
  t.is(t.context.seen.length, before + 1, 'one request, to the API');
  const got = t.context.seen.at(-1);
  t.is(got?.url, '/v1/users?limit=5');
  t.is(got?.headers['x-api-key'], 'secret-123');
  const elsewhere = requests.filter((u) => !u.startsWith(t.context.siteUrl));
  t.true(elsewhere.length > 0 && elsewhere.every((u) => u.startsWith(`${t.context.apiUrl}/v1/users`)), 'nothing but the chosen URL');
  t.deepEqual(errors, []);

  // A body goes as typed, with the spec's media type.
  await page.goto(`${t.context.siteUrl}/api-reference/users/create-user.html`);
  await page.locator('.enclave-try summary').click();
  t.is(await page.locator('[data-try-server]').inputValue(), `${t.context.apiUrl}/v1`, 'the chosen server is remembered');
  await page.locator('[data-try-body]').fill('{"name":"Ada"}');
  await page.locator('.enclave-try-send').click();
  await page.locator('.enclave-try-status', { hasText: '200' }).waitFor();
  t.is(t.context.seen.at(-1)?.method, 'POST');
  t.is(t.context.seen.at(-1)?.body, '{"name":"Ada"}');
  t.is(t.context.seen.at(-1)?.headers['content-type'], 'application/json');
  await context.close();
});

test.serial('"Try it" from file:// says browsers block it there and sends nothing', async (t) => {
  const before = t.context.seen.length;
  const { page, context, requests } = await open(t, fileUrl(t.context.out, 'api-reference/users/list-users.html'));
  await page.locator('.enclave-try summary').click();
  t.regex((await page.locator('.enclave-try-file').textContent()) ?? '', /Browsers block requests from pages opened as files/);
  t.true(await page.locator('.enclave-try-send').isDisabled());
  t.deepEqual(notFile(requests), []);
  t.is(t.context.seen.length, before);
  await context.close();
});

test('accessibility of an API page with "Try it" open and of a page with a tab menu open: labels, one h1, contrast', async (t) => {
  const { readFileSync } = await import('node:fs');
  const audit = readFileSync(new URL('../helpers/a11yAudit.browser.js', import.meta.url), 'utf8');
  for (const [rel, opener] of [
    ['api-reference/users/create-user.html', '.enclave-try summary'],
    ['en/index.html', '.enclave-tab-menu summary'],
  ] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await t.context.browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme });
      const page = await context.newPage();
      await page.goto(fileUrl(t.context.out, rel));
      await page.click(opener);
      const a = (await page.evaluate(audit)) as { h1: number; skips: number; unlabelledControls: string[]; lowContrast: string[] };
      t.is(a.h1, 1, `${rel} ${colorScheme}`);
      t.is(a.skips, 0, `${rel} ${colorScheme}`);
      t.deepEqual(a.unlabelledControls, [], `${rel} ${colorScheme}`);
      t.deepEqual(a.lowContrast, [], `${rel} ${colorScheme}`);
      await context.close();
    }
  }
});

test.serial('"Try it" works from the bundle as the appliance serves it, under the appliance\'s own CSP', async (t) => {
  const src = join(t.context.root, 'src');
  const zip = createZipSink();
  await renderSite({
    sourceDir: src,
    out: zip,
    domain: 'nav-docs.test',
    jobId: 'se_0000000000000019',
    now: new Date(),
    generatorVersion: 'test',
  });
  const zipPath = join(t.context.root, 'nav.zip');
  await zip.finish(zipPath, new Date());
  // The reader types the test API's address, which the spec doesn't name: the operator allows it.
  const app = await startTestAppliance({ serveSample: false, overrides: { staticExport: { tryItOrigins: [t.context.apiUrl] } } });
  t.teardown(() => app.close());
  await app.control.sites.upsert({
    domain: 'nav-docs.test',
    source: src,
    ref: null,
    projectId: app.projectId,
    createdAt: new Date().toISOString(),
  });
  await app.features.deployments.activateBundleFile(zipPath, { source: 'test' });

  const before = t.context.seen.length;
  const { page, context, errors } = await open(t, `${app.url}/api-reference/get-item`);
  await page.locator('.enclave-try summary').click();
  await page.locator('[data-try-server]').fill(`${t.context.apiUrl}/v1`);
  await page.locator('[data-try-name="id"]').fill('it em/1');
  await page.locator('.enclave-try-send').click();
  await page.locator('.enclave-try-status', { hasText: '200' }).waitFor();
  t.is(t.context.seen.length, before + 1);
  t.is(t.context.seen.at(-1)?.url, '/v1/items/it%20em%2F1', 'path parameters are encoded into the path');
  t.deepEqual(errors, [], 'no CSP violation');
  await context.close();
});
