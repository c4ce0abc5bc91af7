import { pathToFileURL } from 'node:url';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { renderFixtureDir } from './renderFixtureDir.js';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(() => browser?.close());

test('badges keep their own size: no utility turns a size or colour class into a 448px square', async (t) => {
  const { out } = await renderFixtureDir(t, 'builtin-classes');
  const page = await browser.newPage();
  t.teardown(() => page.close());
  await page.goto(pathToFileURL(`${out}/index.html`).href);
  const boxes = await page.$$eval('.enclave-content .enclave-badge', (els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { text: e.textContent, width: r.width, height: r.height };
    }),
  );
  t.true(boxes.length >= 10);
  for (const b of boxes) t.true(b.height < 40 && b.width < 200, `${b.text}: ${b.width}x${b.height}`);
  // A six-column group really lays out in columns at desktop width (cols-6 is not Tailwind's `columns`).
  await page.setViewportSize({ width: 1400, height: 900 });
  const columns = await page.$eval('.enclave-card-group-cols-6', (e) => getComputedStyle(e).gridTemplateColumns.split(' ').length);
  t.is(columns, 6);
});

test('a linked card with a link inside stays one card in its grid; both links work', async (t) => {
  const { out } = await renderFixtureDir(t, 'nested-links');
  const page = await browser.newPage();
  t.teardown(() => page.close());
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(pathToFileURL(`${out}/index.html`).href);
  t.is(await page.$$eval('a a', (els) => els.length), 0);
  // The browser's parser did not split the grid: three cards, side by side in one row.
  const tops = await page.$$eval('.enclave-card-group .enclave-card', (els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  t.is(tops.length, 3);
  t.is(new Set(tops).size, 1, `card tops ${tops.join(',')}`);
  // A click on the card's title follows the card's link; a click on the inner link follows that one.
  // (A mouse click at the title's place: the stretched link covers the title, as intended.)
  const title = await page.$eval('.enclave-card-group .enclave-card:first-child .enclave-card-title', (e) => {
    const r = e.getBoundingClientRect();
    return { x: r.left + 5, y: r.top + r.height / 2 };
  });
  await Promise.all([page.waitForURL(/other\.html$/), page.mouse.click(title.x, title.y)]);
  t.regex(page.url(), /other\.html$/);
  await page.goBack();
  await Promise.all([page.waitForURL(/guide\.html$/), page.click('.enclave-card-group .enclave-card:first-child .enclave-card-content a')]);
  t.regex(page.url(), /guide\.html$/);
});
