import { request } from 'node:http';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { launchBrowser } from '../helpers/browser.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { deployAndWait } from '../deploy/helpers/loggedAppliance.js';
import { writeBundle } from '../deploy/helpers/testBundles.js';
import { CHROME, startAnalyticsAppliance } from './analyticsAppliance.js';

// Issue 33 items 2 and 3: every site in the dashboard (switcher, site columns, CSV, per-site
// rollback), and charts whose x-axis is the chosen period with days without data drawn as 0.
// The server's clock and the browser's are both fixed, so the period is the same on every run.

const OTHER = 'b.test.internal';

/** A request with a Host header (fetch can't set one), answering the status. */
function hostRequest(url: string, host: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<number> {
  const target = new URL(path, url);
  return new Promise((resolve, reject) => {
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const req = request(
      target,
      {
        method: init.method ?? 'GET',
        headers: { Host: host, 'User-Agent': CHROME, ...(body ? { 'Content-Type': 'application/json', Origin: `http://${host}` } : {}) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test('dashboard in Chromium: the x-axis spans the chosen period, missing days are zeros, every site can be chosen, listed, exported as CSV and rolled back; phone tables keep whole words', async (t) => {
  const clock = new ManualClock('2026-03-07T10:00:00.000Z');
  const app = await startAnalyticsAppliance({ clock });
  t.teardown(() => app.close());
  await app.visit('/', CHROME); // 2026-03-07 on the default site (docs.test.internal)

  // A second site with two versions of its own.
  const source = await makeTempDir('enclave-dash-b-');
  t.teardown(() => rm(source, { recursive: true, force: true }));
  await mkdir(join(source, 'bundles'));
  await writeFile(join(source, 'docs.json'), JSON.stringify({ name: 'B', navigation: { pages: ['index'] } }));
  await writeFile(join(source, 'index.mdx'), '# B\n');
  t.is((await app.api('/v1/sites', { method: 'POST', json: { domain: OTHER, source } })).status, 201);
  for (const version of ['b1', 'b2']) {
    const zip = join(source, 'bundles', `${version}.zip`);
    await writeBundle(zip, version, { manifestFields: { domain: OTHER } });
    const record = await deployAndWait(app, { bundleUrl: zip, domain: OTHER });
    t.is(record.status, 'active', JSON.stringify(record));
  }

  // A broken deployment of that site: refused, recorded, and to be seen in the dashboard.
  const refused = await deployAndWait(app, { bundleUrl: join(source, 'bundles', 'missing.zip'), domain: OTHER });
  t.is(refused.status, 'failed');

  clock.set('2026-03-10T09:00:00.000Z');
  await app.visit('/guides/start', CHROME); // 2026-03-10, default site
  t.is(await hostRequest(app.url, OTHER, '/'), 200);
  clock.set('2026-03-10T09:20:00.000Z'); // past the repeat window: the same reader's second view counts
  t.is(await hostRequest(app.url, OTHER, '/'), 200);
  t.is(
    await hostRequest(app.url, OTHER, '/_enclave/feedback', {
      method: 'POST',
      body: { source: 'contextual', path: '/', helpful: false, comment: 'Only on b' },
    }),
    201,
  );

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  await page.clock.setFixedTime(new Date('2026-03-10T12:00:00.000Z'));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${app.dashboardUrl}/_enclave/admin`);
  await page.locator('#key').fill(app.key);
  await page.locator('#login button').click();
  await page.locator('#views-chart canvas').waitFor({ timeout: 15_000 });
  await page.locator('#status').filter({ hasText: 'Updated' }).waitFor({ timeout: 15_000 });

  const chart = async (id: string) =>
    page.locator(`#${id}`).evaluate((el) => ({
      xMin: el.getAttribute('data-x-min'),
      xMax: el.getAttribute('data-x-max'),
      days: el.getAttribute('data-days'),
      points: el.getAttribute('data-points'),
      zeros: el.getAttribute('data-zero-days'),
    }));
  // Last 30 days (the default): 2026-02-09 … 2026-03-10, three days with views, 27 zeros.
  t.deepEqual(await chart('views-chart'), { xMin: '2026-02-09', xMax: '2026-03-10', days: '30', points: '2', zeros: '28' });
  t.deepEqual(await chart('feedback-chart'), { xMin: '2026-02-09', xMax: '2026-03-10', days: '30', points: '1', zeros: '29' });
  const dayRows = await page
    .locator('#views-days tbody tr')
    .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)));
  t.is(dayRows.length, 30);
  t.deepEqual(dayRows[0], ['2026-03-10', '3', '0']);
  t.deepEqual(dayRows[2], ['2026-03-08', '0', '0'], 'a day without views is listed as zero');
  t.deepEqual(dayRows[3], ['2026-03-07', '1', '0']);

  await page.locator('#range').selectOption('7');
  await page.locator('#status').filter({ hasText: 'Updated' }).waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => document.getElementById('views-chart')?.getAttribute('data-days') === '7');
  t.deepEqual(await chart('views-chart'), { xMin: '2026-03-04', xMax: '2026-03-10', days: '7', points: '2', zeros: '5' });

  // All sites: a site column, rows of both sites.
  t.deepEqual(await page.locator('#site option').allTextContents(), ['All sites', OTHER, 'docs.test.internal', 'sample.enclave.internal']);
  const topPages = await page
    .locator('#top-pages tbody tr')
    .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)));
  t.deepEqual(topPages, [
    [OTHER, '/', '2', '0', '2'],
    ['docs.test.internal', '/', '1', '0', '1'],
    ['docs.test.internal', '/guides/start', '1', '0', '1'],
  ]);
  const deploymentSites = await page.locator('#deployments tbody tr td:first-child').allTextContents();
  t.true(deploymentSites.includes(OTHER) && deploymentSites.includes('docs.test.internal'), deploymentSites.join(', '));

  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('button[data-csv="top-pages"]').click()]);
  const csv = await readFile((await download.path())!, 'utf8');
  t.deepEqual(csv.trim().split('\r\n'), [
    'Site,Page,Human,AI,Total',
    `${OTHER},/,2,0,2`,
    'docs.test.internal,/,1,0,1',
    'docs.test.internal,/guides/start,1,0,1',
  ]);

  // One site: its views, its feedback, its deployments, and a rollback of that site.
  await page.locator('#site').selectOption(OTHER);
  await page.locator('#status').filter({ hasText: 'Updated' }).waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => document.getElementById('views-totals')?.textContent?.startsWith('2 views'));
  t.true(page.url().endsWith(`#site=${OTHER}`), 'the choice is in the address, so a reload keeps it');
  const triage = await page.locator('#triage tbody tr').first().locator('td').allTextContents();
  t.is(triage[1], OTHER);
  t.is(triage[4], '👎 Only on b');
  t.regex((await page.locator('#active-deployment').textContent()) ?? '', new RegExp(`Live: ${OTHER} version b2`));
  t.regex((await page.locator('#active-deployment').textContent()) ?? '', new RegExp(`Last error on ${OTHER} \\(2026-03-07 10:00\\): `));
  t.deepEqual(
    await page
      .locator('#deployments tbody tr')
      .evaluateAll((trs) => (trs as HTMLTableRowElement[]).map((tr) => [tr.cells[0].textContent, tr.cells[2].textContent])),
    [
      [OTHER, 'failed'],
      [OTHER, 'active'],
      [OTHER, 'kept'],
    ],
  );
  await page.locator('#deployments button', { hasText: `Roll back ${OTHER} to b1` }).click();
  await page
    .locator('#status')
    .filter({ hasText: `Rolled ${OTHER} back to b1` })
    .waitFor({ timeout: 15_000 });
  const after = (await (await app.api(`/v1/deployments?domain=${OTHER}`)).json()) as { active: { version: string } };
  t.is(after.active.version, 'b1');
  const defaultSite = (await (await app.api('/v1/deployments')).json()) as { active: { version: string } };
  t.is(defaultSite.active.version, 'v1', 'the default site was not touched');

  // Phone: tables scroll inside their card; no header or cell wraps inside a word.
  await page.locator('#site').selectOption('');
  await page.locator('#status').filter({ hasText: 'Updated' }).waitFor({ timeout: 15_000 });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  const wide = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1 && !el.closest('.scroll'))
      .map((el) => `${el.tagName}#${el.id}.${el.className}`),
  );
  t.deepEqual(wide, [], 'nothing sticks out of the page but a table in its scroll box');
  t.true(
    await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    'no sideways page scroll',
  );
  const broken = await page.evaluate(() => {
    const out: string[] = [];
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('#dashboard table[id] th, #dashboard table[id] td'))) {
      if (!el.offsetParent || !el.textContent?.trim() || el.querySelector('.sr-only')) continue;
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
      const words = el.textContent.trim().split(/\s+/).length;
      if (lines > words) out.push(`${el.textContent.trim()} (${lines} lines)`);
    }
    return out;
  });
  t.deepEqual(broken, [], 'cells wrap only between words');
  t.deepEqual(errors, []);
});
