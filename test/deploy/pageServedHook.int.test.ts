import test from 'ava';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { openControlStore } from '../../src/features/control/ControlStore.js';
import { SiteDeployments } from '../../src/features/deployments/SiteDeployments.js';
import { createSiteHandler } from '../../src/features/deployments/site/createSiteHandler.js';
import type { ServedPage } from '../../src/features/deployments/site/PageServedHook.js';
import { systemClock } from '../../src/platform/Clock.js';
import { createLogger } from '../../src/platform/logging/createLogger.js';
import { makeTempDir, makeTestConfig } from '../helpers/testAppliance.js';
import { writeBundle } from './helpers/testBundles.js';

test('onPageServed is told of every file a GET got (200 or 304), with site, version and client; not of HEAD, the 404 page or redirects', async (t) => {
  const dir = await makeTempDir('enclave-hook-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeBundle(join(dir, 'v1.zip'), 'v1');
  const config = makeTestConfig(join(dir, 'data'));
  const control = await openControlStore(config);
  const logger = createLogger('silent');
  const sites = await SiteDeployments.open({ config, logger, clock: systemClock, sites: control.sites });
  await (await sites.defaultSite.beginLocal(join(dir, 'v1.zip'), 'test', { origin: 'api', pin: null })).done;
  const calls: ServedPage[] = [];
  const handler = createSiteHandler(sites, { logger, onPageServed: (page) => calls.push(page) });
  const server = createServer((req, res) => {
    const [path, query = ''] = (req.url ?? '/').split('?');
    void handler({ req, res, host: 'docs.example', path, query, requestId: 'r1', address: '192.0.2.7' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const page = await fetch(`${base}/guides/start`, { headers: { 'User-Agent': 'test-browser/1' } });
  await page.arrayBuffer();
  t.deepEqual(calls, [
    { domain: 'docs.test.internal', version: 'v1', file: 'guides/start.html', userAgent: 'test-browser/1', address: '192.0.2.7' },
  ]);
  await (await fetch(`${base}/guides/start`, { headers: { 'If-None-Match': page.headers.get('etag')! } })).arrayBuffer();
  t.is(calls[1]?.file, 'guides/start.html', 'a 304 confirms a view too');
  for (const path of ['/_assets/logo.png', '/no/such/page', '/guides'])
    await (await fetch(`${base}${path}`, { redirect: 'manual' })).arrayBuffer();
  await fetch(`${base}/guides/start`, { method: 'HEAD' });
  t.deepEqual(
    calls.map((c) => c.file),
    ['guides/start.html', 'guides/start.html', '_assets/logo.png'],
    'assets are told (analytics decides what is a page); HEAD, the 404 page and redirects are not',
  );
  await sites.flush();
  await control.document.flush();
});
