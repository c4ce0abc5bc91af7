import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExecutionContext } from 'ava';
import { recordOffOrigin } from '../../helpers/recordOffOrigin.js';
import { serveStaticFolder } from '../../helpers/serveStaticFolder.js';
import { type BrowserSuiteContext, browserSuite } from '../browserSuite.js';
import { ISLAND_SITE } from './islandSite.js';

const test = browserSuite(ISLAND_SITE);

/** Opens the home page at `base` and checks every island works, with nothing asked of other origins. */
async function checkIslands(t: ExecutionContext<BrowserSuiteContext>, base: string, origin: string) {
  const context = await t.context.browser.newContext({ viewport: { width: 1111, height: 700 } });
  const { outbound } = await recordOffOrigin(context, origin);
  const errors: string[] = [];
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}index.html`);
  await page.locator('enclave-island[data-name="Counter"][data-hydrated]').waitFor();

  // useState + onClick: the counter starts at its prop and counts clicks.
  const counter = page.locator('button.counter');
  t.is(await counter.textContent(), 'Clicks: 2');
  await counter.click();
  await counter.click();
  t.is(await counter.textContent(), 'Clicks: 4');
  // useEffect reading window: the width the browser has, not the build-time placeholder.
  t.is(await page.locator('p.width').textContent(), 'Width: 1111');
  // A snippet's component, imported by the page: its children (Markdown rendered at build) inside it.
  t.is(await page.locator('.setup .setup-children strong').textContent(), 'guide');
  await page.locator('button.setup-button').click();
  t.is(await page.locator('button.setup-button').textContent(), 'Set up');

  t.deepEqual(await page.locator('enclave-island[data-island-error]').count(), 0);
  t.deepEqual(errors, []);
  t.deepEqual(outbound, [], 'no request to another origin');
  await context.close();
}

test('islands run from file://: state, an effect reading window, click handlers, snippet components', async (t) => {
  await checkIslands(t, `${pathToFileURL(t.context.out).href}/`, 'file://');
});

test('islands run from a plain static server with no request to another origin', async (t) => {
  const server = await serveStaticFolder(t.context.out);
  try {
    await checkIslands(t, `${server.url.replace(/\/?$/, '/')}`, server.url.replace(/\/?$/, '/'));
  } finally {
    await server.close();
  }
});

test('a component that cannot run keeps its static render and the page has no island runtime', async (t) => {
  const context = await t.context.browser.newContext();
  const page = await context.newPage();
  await page.goto(pathToFileURL(join(t.context.out, 'widgets.html')).href);
  t.is(await page.locator('enclave-island').count(), 0);
  t.is(await page.evaluate(() => typeof (window as unknown as { preact?: unknown }).preact), 'undefined');
  await context.close();
});
