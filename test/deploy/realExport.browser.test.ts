import test from 'ava';
import type { Request } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SAMPLE_DOMAIN } from '../../src/app/bootstrap/sampleDocs.js';
import { launchBrowser } from '../helpers/browser.js';
import { startLoggedAppliance } from './helpers/loggedAppliance.js';

test('a real export of the sample docs verifies, activates and serves with all its assets under the site CSP', async (t) => {
  const app = await startLoggedAppliance();
  t.teardown(() => app.close());
  const built = await app.features.exports.exportAndBundle(SAMPLE_DOMAIN);
  const { version } = await app.features.deployments.activateBundleFile(built.zipPath, { source: `export ${built.jobId}` });
  t.is(version, built.version);
  const current = app.features.deployments.activeSite.current();
  t.is(current?.domain, SAMPLE_DOMAIN);
  t.true(current!.pagePaths.has('/'));

  const manifest = JSON.parse(
    await readFile(
      join(app.dataDir, 'site', 'versions', (await (await app.api('/v1/deployments')).json()).active.id, 'manifest.json'),
      'utf8',
    ),
  );
  t.is(manifest.pages.length, current!.pagePaths.size);
  const pages = [...current!.pagePaths].slice(0, 12).map((path) => ({ path }));
  const checked = new Set<string>();
  for (const page of pages) {
    const res = await fetch(`${app.url}${page.path}`);
    t.is(res.status, 200, page.path);
    const html = await res.text();
    // Scripts only from the site: default-src 'self', or script-src 'self' plus inline hashes.
    const csp = res.headers.get('content-security-policy') ?? '';
    t.regex(csp, /^default-src 'self'/);
    t.notRegex(csp, /script-src[^;]*(https?:|\*|'unsafe)/);
    // Every local script, stylesheet and image the page loads is served.
    for (const [, ref] of html.matchAll(/(?:src|href)="([^"#?]+\.(?:css|js|mjs|svg|png|woff2?))"/g)) {
      const url = new URL(ref, `${app.url}${page.path}`);
      if (url.origin !== app.url || checked.has(url.pathname)) continue;
      checked.add(url.pathname);
      const asset = await fetch(url);
      t.is(asset.status, 200, `${url.pathname} from ${page.path}`);
      await asset.arrayBuffer();
    }
  }
  t.true(checked.size > 0, 'pages reference assets');
  // Issue 32: the two files every page links keep one name in every export, so they are
  // revalidated by ETag, never cached as immutable; content-hashed assets still are.
  for (const name of ['/_assets/utilities.css', '/_assets/search-index.js']) {
    const res = await fetch(`${app.url}${name}`);
    t.is(res.status, 200, name);
    t.is(res.headers.get('cache-control'), 'no-cache', name);
    await res.arrayBuffer();
    const again = await fetch(`${app.url}${name}`, { headers: { 'if-none-match': res.headers.get('etag') ?? '' } });
    t.is(again.status, 304, name);
  }
  const hashed = [...checked].find((p) => /\.[0-9a-f]{10}\.css$/.test(p));
  t.truthy(hashed, 'the theme stylesheet has a content-hashed name');
  t.is((await fetch(`${app.url}${hashed}`)).headers.get('cache-control'), 'public, max-age=31536000, immutable');
  const missing = await fetch(`${app.url}/definitely/not/here`);
  t.is(missing.status, 404);
});

test('in a real browser, the exported sample site runs under the site CSP with no violation and no failed request', async (t) => {
  const app = await startLoggedAppliance();
  t.teardown(() => app.close());
  const built = await app.features.exports.exportAndBundle(SAMPLE_DOMAIN);
  await app.features.deployments.activateBundleFile(built.zipPath, { source: `export ${built.jobId}` });
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  // Requests in the order issued, and the latest main-frame navigation's place among them: the
  // widgets' probes chain (HEAD, then health and assistant), and on a busy machine a gap in the
  // chain can outlast networkidle's 500 ms, so the next visit cuts off a request the page before
  // it had issued. That abort is the test's doing, not the site's.
  let issued = 0;
  let lastNavigation = 0;
  const order = new WeakMap<Request, number>();
  page.on('request', (r) => {
    order.set(r, ++issued);
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) lastNavigation = issued;
  });
  page.on('requestfailed', (r) => {
    const aborted = r.failure()?.errorText === 'net::ERR_ABORTED';
    if (aborted && !r.isNavigationRequest() && (order.get(r) ?? issued) < lastNavigation) return;
    // Chromium reports a HEAD whose fetch resolved (the widget's same-origin X-Enclave-Site check)
    // as ERR_ABORTED, having read no body; a failed HEAD would reject that fetch instead.
    if (r.method() === 'HEAD' && aborted) return;
    problems.push(`failed: ${r.url()} (${r.failure()?.errorText})`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  const paths = [...app.features.deployments.activeSite.current()!.pagePaths].slice(0, 6);
  for (const path of paths) {
    await page.goto(`${app.url}${path}`, { waitUntil: 'networkidle' });
  }
  t.deepEqual(problems, []);
});
