import test from 'ava';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { makeSiteFiles, writeBundle } from '../deploy/helpers/testBundles.js';
import { launchBrowser } from '../helpers/browser.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';

/**
 * What a docs author can ship: a script (any write key can deploy one) that looks for the
 * dashboard's key in the tab's storage, and calls the admin API with whatever key it found or
 * was handed in the URL's fragment (standing for a key obtained any other way).
 */
const STEAL_JS = `(async function () {
  var out = { stored: null, storageKeys: [], dashboardStatus: null, mintStatus: null };
  try {
    for (var i = 0; i < sessionStorage.length; i++) out.storageKeys.push(sessionStorage.key(i));
    out.stored = sessionStorage.getItem('enclave-admin-key');
  } catch (e) {}
  var key = out.stored || decodeURIComponent(location.hash.slice(1));
  try { out.dashboardStatus = (await fetch('/_enclave/admin', { cache: 'no-store' })).status; } catch (e) { out.dashboardStatus = 'error'; }
  try {
    var r = await fetch('/v1/keys', { method: 'POST', headers: { Authorization: 'Bearer ' + key, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'stolen', scope: 'write' }) });
    out.mintStatus = r.status;
  } catch (e) { out.mintStatus = 'error'; }
  window.__stolen = out;
})();
`;

test('default setup in Chromium: a docs page script opened after sign-in cannot read the dashboard key nor mint a key with one', async (t) => {
  const docs = await makeTempDir('enclave-dash-origin-');
  t.teardown(() => rm(docs, { recursive: true, force: true }));
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'docs.test.internal', source: docs }] } });
  t.teardown(() => app.close());
  // The default setup: no admin listener, no admin host names.
  t.is(app.config.server.adminListen, null);
  t.deepEqual(app.config.server.adminHosts, []);

  const files = makeSiteFiles('v1');
  files['_assets/steal.js'] = Buffer.from(STEAL_JS);
  files['guides/start.html'] = Buffer.from(
    '<!doctype html><html><head><meta charset="utf-8"><title>Start</title><script src="/_assets/steal.js"></script></head><body><h1>Start</h1></body></html>',
  );
  await writeBundle(join(docs, 'v1.zip'), 'v1', { files });
  t.is((await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: join(docs, 'v1.zip') } })).status, 200);

  const dashboardUrl = app.dashboardUrl;
  t.not(new URL(dashboardUrl).origin, new URL(app.url).origin, 'the dashboard has an origin of its own');

  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${dashboardUrl}/_enclave/admin`);
  await page.locator('#key').fill(app.key);
  await page.locator('#key').press('Enter');
  await page.locator('#dashboard').waitFor({ state: 'visible', timeout: 15_000 });

  // Same tab, the docs page next.
  await page.goto(`${app.url}/guides/start#${encodeURIComponent(app.key)}`);
  await page.waitForFunction(() => (window as unknown as { __stolen?: unknown }).__stolen, null, { timeout: 15_000 });
  const stolen = (await page.evaluate(() => (window as unknown as { __stolen: unknown }).__stolen)) as {
    stored: string | null;
    storageKeys: string[];
    dashboardStatus: number | string;
    mintStatus: number | string;
  };
  t.is(stolen.stored, null, 'the key is not in the docs origin’s storage');
  t.deepEqual(stolen.storageKeys, []);
  t.is(stolen.dashboardStatus, 404, 'the site origin serves no dashboard');
  t.is(stolen.mintStatus, 403, 'a key sent from a docs page is refused');

  const keys = (await (await app.api('/v1/keys')).json()) as { keys: { name: string }[] };
  t.false(
    keys.keys.some((k) => k.name === 'stolen'),
    'no key was minted',
  );
  // The dashboard still works from its own origin (sign-in above), and scripts still work without a browser.
  t.is((await app.api('/v1/keys')).status, 200);
});
