import { pathToFileURL } from 'node:url';
import test from 'ava';
import { launchBrowser } from '../../helpers/browser.js';
import { renderFixtureDir } from '../renderFixtureDir.js';

test('text the author set in "Inter" is drawn with the bundled Inter faces, not a fallback', async (t) => {
  const { out } = await renderFixtureDir(t, 'author-font');
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  await page.goto(pathToFileURL(`${out}/index.html`).href);
  const family = await page.$eval('.enclave-content p', (p) => getComputedStyle(p).fontFamily);
  t.regex(family, /^"?Inter"?,/);
  // The face named "Inter" is loaded from the bundle (a fallback would leave it unloaded).
  const loaded = await page.evaluate(async () => {
    await document.fonts.ready;
    await document.fonts.load('16px Inter', 'abc');
    let count = 0;
    document.fonts.forEach((f) => {
      if (f.family.replace(/["']/g, '') === 'Inter' && f.status === 'loaded') count++;
    });
    return count;
  });
  t.true(loaded > 0, 'an "Inter" face loaded');
});
