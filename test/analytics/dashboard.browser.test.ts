import test from 'ava';
import type { Page } from 'playwright-core';
import { writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { launchBrowser } from '../helpers/browser.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { CHROME, FIREFOX, GPTBOT, startAnalyticsAppliance } from './analyticsAppliance.js';

/** Collects page errors, console errors (CSP refusals among them) and failed loads. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A failed load is listed by its URL below; the console's own line for it doesn't name one.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) errors.push(`${r.status()} ${r.url()}`);
  });
  return errors;
}

test("dashboard in real Chromium: sign in with a key, charts drawn from the test's data, a feedback status changed and persisted; 1366×768, phone, keyboard, dark", async (t) => {
  const app = await startAnalyticsAppliance();
  t.teardown(() => app.close());
  for (const [path, ua] of [
    ['/', CHROME],
    ['/', FIREFOX],
    ['/guides/start', CHROME],
    ['/guides/start', GPTBOT],
  ])
    await app.visit(path, ua);
  const posted = await fetch(`${app.url}/_enclave/feedback`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ source: 'contextual', path: '/guides/start', helpful: false, comment: 'Step 3 is unclear' }),
  });
  t.is(posted.status, 201);
  const feedbackId = ((await posted.json()) as { id: string }).id;
  for (const body of [
    { type: 'search', query: 'install', results: 2 },
    { type: 'search', query: 'kubernetes', results: 0 },
  ]) {
    await fetch(`${app.url}/_enclave/search-events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  // An export job with a page that does not render, for the recent-jobs table.
  const docs = await makeTempDir('enclave-dash-docs-');
  t.teardown(() => rm(docs, { recursive: true, force: true }));
  await writeFile(join(docs, 'docs.json'), JSON.stringify({ name: 'Dash', navigation: { pages: ['index', 'broken'] } }));
  await writeFile(join(docs, 'index.mdx'), '# Home\n');
  await writeFile(join(docs, 'broken.mdx'), '---\ntitle: Broken\n---\n\n<Card title="x">\n\nunclosed\n');
  t.is((await app.api('/v1/sites', { method: 'POST', json: { domain: 'dash.test.internal', source: docs } })).status, 201);
  const started = (await (await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'dash.test.internal' } })).json()) as {
    jobId: string;
  };
  await waitUntil('the export job to finish', async () => {
    const job = (await (await app.api(`/v1/static-export/jobs/${started.jobId}`)).json()) as { status: string };
    return job.status === 'completed' || job.status === 'failed';
  });

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${app.dashboardUrl}/_enclave/admin`);

  // Keyboard only: the key field is the first control; Enter submits.
  await page.keyboard.press('Tab');
  t.is(await page.evaluate(() => document.activeElement?.id), 'key');
  await page.keyboard.type(app.key);
  await page.keyboard.press('Enter');
  await page.locator('#views-chart canvas').waitFor({ timeout: 15_000 });
  t.false(page.url().includes(app.key), 'the key is never in the URL');
  t.is(await page.evaluate(() => sessionStorage.getItem('enclave-admin-key')), app.key);

  t.is(await page.locator('#views-chart').getAttribute('data-points'), '1');
  t.regex((await page.locator('#views-totals').textContent()) ?? '', /4 views: 3 human, 1 AI/);
  const today = new Date().toISOString().slice(0, 10);
  t.deepEqual(await page.locator('#views-days tbody tr').first().locator('td').allTextContents(), [today, '3', '1']);
  t.regex((await page.locator('#visitors-totals').textContent()) ?? '', /3 visitors: 2 human, 1 AI/);
  const rows = await page
    .locator('#top-pages tbody tr')
    .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent)));
  t.deepEqual(rows, [
    ['docs.test.internal', '/', '2', '0', '2'],
    ['docs.test.internal', '/guides/start', '1', '1', '2'],
  ]);
  t.true((await page.locator('#top-searches').textContent())?.includes('install'));
  t.true((await page.locator('#empty-searches').textContent())?.includes('kubernetes'));
  t.false((await page.locator('#empty-searches').textContent())?.includes('install'));
  t.regex((await page.locator('#active-deployment').textContent()) ?? '', /Live: docs\.test\.internal version v1/);
  t.is(await page.locator('#feedback-chart').getAttribute('data-points'), '1');

  // Triage: set the status with the keyboard, see it persisted by the API and after a reload.
  const select = page.locator('#triage select').first();
  await select.focus();
  await select.selectOption('resolved');
  await page.locator('#status').filter({ hasText: 'set to resolved' }).waitFor({ timeout: 10_000 });
  const stored = (await (await app.api(`/v1/analytics/${app.projectId}/feedback?status=resolved`)).json()) as {
    feedback: { id: string }[];
  };
  t.deepEqual(
    stored.feedback.map((e) => e.id),
    [feedbackId],
  );
  await page.reload();
  await page.locator('#views-chart canvas').waitFor({ timeout: 15_000 });
  t.true((await page.locator('#triage').textContent())?.includes('No feedback with this status'), 'pending list is empty now');
  await page.locator('#status-filter').selectOption('resolved');
  await page.locator('#triage select').first().waitFor();
  t.is(await page.locator('#triage select').first().inputValue(), 'resolved');

  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  t.true((await overflow()) <= 0, 'no sideways scrolling at 1366×768');
  const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  t.not(light, dark, 'dark mode follows the system setting');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(400);
  t.true((await overflow()) <= 0, 'no sideways scrolling on a phone');
  const chartWidth = await page.locator('#views-chart canvas').evaluate((c) => c.getBoundingClientRect().width);
  t.true(chartWidth <= 390, `chart fits the phone (${chartWidth}px)`);

  await page.locator('#sign-out').click();
  t.is(await page.evaluate(() => sessionStorage.getItem('enclave-admin-key')), null);
  t.deepEqual(errors, []);
  const exportsTable = (await page.locator('#exports').textContent()) ?? '';
  t.true(exportsTable.includes(started.jobId), exportsTable);
  t.regex(exportsTable, /1: \/broken \(/, 'the failed page is named in the recent-jobs table');
});

test('dashboard: a wrong key is refused with a message, and nothing is stored', async (t) => {
  const app = await startAnalyticsAppliance({ deploy: false });
  t.teardown(() => app.close());
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  await page.goto(`${app.dashboardUrl}/_enclave/admin`);
  await page.locator('#key').fill('enc_wrongwrongwrongwrongwrongwrongwrongwrongwrong12');
  await page.locator('#login button').click();
  await page.locator('#login-error').filter({ hasText: 'not accepted' }).waitFor({ timeout: 10_000 });
  t.is(await page.evaluate(() => sessionStorage.getItem('enclave-admin-key')), null);
  t.true(await page.locator('#dashboard').isHidden());
});
