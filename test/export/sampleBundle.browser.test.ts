import AdmZip from 'adm-zip';
import test from 'ava';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SAMPLE_DOMAIN } from '../../src/app/bootstrap/sampleDocs.js';
import { launchBrowser } from '../helpers/browser.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import { checkBundle, download, exportToBundle } from './exportTestHelpers.js';

test('the exported sample bundle works from file:// in headless Chromium: title shown, sidebar link opens the right page', async (t) => {
  t.timeout(4 * 60_000);
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const { link } = await exportToBundle(app, SAMPLE_DOMAIN);
  const bytes = await download(link.bundleUrl);
  const { manifest } = checkBundle(bytes);
  const dir = await makeTempDir('enclave-extracted-');
  new AdmZip(bytes).extractAllTo(dir, true);

  const home = manifest.pages.find((p) => p.file === 'index.html')!;
  const target = manifest.pages.find((p) => p.file === 'quickstart.html')!;
  t.truthy(home && target, 'the sample has a home page and a quick start');

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));

  await page.goto(pathToFileURL(join(dir, 'index.html')).toString());
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the text a reader sees, as meant here
  t.is((await page.locator('h1').first().innerText()).trim(), home.title);
  t.true((await page.title()).includes(home.title));

  const sidebarLink = page.locator('#enclave-sidebar a[href="quickstart.html"]').first();
  t.true(await sidebarLink.isVisible(), 'the sidebar lists the quick start');
  await Promise.all([page.waitForURL(/quickstart\.html$/), sidebarLink.click()]);
  t.true(page.url().startsWith('file://'));
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the text a reader sees, as meant here
  t.is((await page.locator('h1').first().innerText()).trim(), target.title);
  t.deepEqual(errors, []);
  t.deepEqual(
    requests.filter((u) => !u.startsWith('file://') && !u.startsWith('data:')),
    [],
    'no request leaves the bundle',
  );
});
