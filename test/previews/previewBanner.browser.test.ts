import test from 'ava';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { pathOf, previewWorld, waitForStatus } from './previewFixture.js';

/** Page errors and console errors (a CSP refusal of the banner's script among them). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  return errors;
}

// The appliance runs a git site and previews, which browserSuite (a rendered folder) can't hold:
// the browser is launched as the dashboard's browser tests launch it.
test('Chromium opens a preview: banner with branch and commit, dismissed for the session, links under the prefix; the dashboard lists and deletes it', async (t) => {
  const { app, repo } = await previewWorld(t);
  const sha = await repo.commit({ 'index.mdx': '---\ntitle: Welcome\n---\n\nBanner check draft.\n' }, 'Banner draft', 'docs/banner');
  const res = await app.api(`/v1/project/preview/${app.projectId}`, { method: 'POST', json: { branch: 'docs/banner' } });
  const { statusId, previewUrl } = (await res.json()) as { statusId: string; previewUrl: string };
  t.is((await waitForStatus(app.api, statusId)).status, 'success');
  // 127.0.0.1 is no site's name, so it reaches the preview as the site's own host would.
  const url = `${app.url}${pathOf(previewUrl)}`;

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const errors = watchErrors(page);
  await page.goto(url);
  const banner = page.locator('#enclave-preview-banner');
  await banner.waitFor({ timeout: 15_000 });
  t.true(await banner.isVisible());
  t.is(await banner.locator('[data-preview-branch]').textContent(), 'docs/banner');
  t.is(await banner.locator('[data-preview-commit]').textContent(), sha.slice(0, 7));
  t.true(await page.getByText('Banner check draft.').isVisible());
  const box = await banner.boundingBox();
  t.true(box !== null && box.y < 5, 'the banner is the first thing on the page');
  t.is(await page.locator('meta[name="robots"]').getAttribute('content'), 'noindex, nofollow');

  await banner.locator('button').click();
  t.is(await banner.count(), 0, 'dismissed');
  await page.locator('a[href*="guides/setup"]').first().click();
  await page.waitForURL(/\/guides\/setup(?:\.html)?$/);
  t.true(page.url().startsWith(url), page.url());
  t.true(await page.getByText('Install the thing.').isVisible());
  t.is(await page.locator('#enclave-preview-banner').count(), 0, 'stays dismissed for the session');
  t.deepEqual(errors, []);

  // The dashboard's Previews table: open and delete.
  await page.goto(`${app.dashboardUrl}/_enclave/admin`);
  await page.locator('#key').fill(app.key);
  await page.locator('#login button').click();
  const row = page.locator('#previews tbody tr').filter({ hasText: 'docs/banner' });
  await row.waitFor({ timeout: 15_000 });
  t.is(await row.locator('a').getAttribute('href'), previewUrl);
  t.true(((await row.textContent()) ?? '').includes(sha.slice(0, 12)));
  page.once('dialog', (dialog) => void dialog.accept());
  await row.locator('button').click();
  await page.locator('#previews tbody').filter({ hasText: 'No previews' }).waitFor({ timeout: 15_000 });
  t.is((await fetch(url)).status, 404);
});
