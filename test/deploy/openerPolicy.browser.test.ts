import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from '../helpers/browser.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { deployAndWait, getWithHost, startLoggedAppliance } from './helpers/loggedAppliance.js';
import { writeBundle } from './helpers/testBundles.js';

// Browsers ignore Cross-Origin-Opener-Policy on a page that is not a secure context (plain HTTP
// to a host other than loopback) and log an error on every such page. Appliances are often
// reached exactly that way on a private network.
const PLAIN_HOST = 'docs.plain.internal';
const COOP = 'cross-origin-opener-policy';

test('over plain HTTP to a network name no page carries COOP and Chromium logs no COOP error; loopback and HTTPS keep it', async (t) => {
  const dir = await makeTempDir('enclave-coop-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeBundle(join(dir, 'v1.zip'), 'v1');
  const app = await startLoggedAppliance({ overrides: { server: { trustProxy: true } } as never });
  t.teardown(() => app.close());
  t.like(await deployAndWait(app, { bundleUrl: join(dir, 'v1.zip') }), { status: 'active' });

  const plain = await getWithHost(`${app.url}/`, PLAIN_HOST);
  t.is(plain.status, 200);
  t.is(plain.headers[COOP], undefined, 'a site page over plain HTTP');
  t.is((await getWithHost(`${app.url}/_enclave/admin/`, PLAIN_HOST)).headers[COOP], undefined, 'a dashboard page over plain HTTP');
  t.is((await getWithHost(`${app.url}/`, '127.0.0.1')).headers[COOP], 'same-origin', 'loopback is a secure context');
  t.is((await getWithHost(`${app.url}/`, 'localhost')).headers[COOP], 'same-origin');
  const proxied = await getWithHost(`${app.url}/`, PLAIN_HOST, { 'X-Forwarded-Proto': 'https' });
  t.is(proxied.headers[COOP], 'same-origin', 'HTTPS at a trusted proxy');

  if (!existsSync(CHROMIUM_PATH)) return t.fail(`Chromium not found at ${CHROMIUM_PATH}`);
  const port = new URL(app.url).port;
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--host-resolver-rules=MAP ${PLAIN_HOST} 127.0.0.1`],
  });
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const messages: string[] = [];
  page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
  const response = await page.goto(`http://${PLAIN_HOST}:${port}/`);
  t.is(response?.status(), 200);
  await page.goto(`http://${PLAIN_HOST}:${port}/guides/start`);
  t.deepEqual(
    messages.filter((m) => /Cross-Origin-Opener-Policy/i.test(m)),
    [],
    messages.join('\n'),
  );
});
