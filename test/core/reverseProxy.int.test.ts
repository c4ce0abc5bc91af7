import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { join } from 'node:path';
import test from 'ava';
import { startAnalyticsAppliance } from '../analytics/analyticsAppliance.js';
import { applianceFetch, makeTempDir } from '../helpers/testAppliance.js';
import { deployAndWait } from '../deploy/helpers/loggedAppliance.js';
import { writeBundle } from '../deploy/helpers/testBundles.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { freePort } from '../helpers/freePort.js';

// Issue 33 item 6: the nginx example of docs/operations.md, taken from the guide as written
// (only ports, certificate paths and the operators' network are swapped for the test's), in
// front of a real appliance configured as the guide says. nginx comes from Debian (as for
// npm run bench:serve); without it this test is skipped, and says so.
const NGINX = '/usr/sbin/nginx';
const run = existsSync(NGINX) ? test : test.skip;

/** An HTTPS request to the proxy naming `host` (SNI and Host), the test's certificate accepted. */
function viaProxy(
  port: number,
  host: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: init.method ?? 'GET',
        servername: host,
        rejectUnauthorized: false,
        headers: { Host: host, ...init.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

run('the guide’s nginx example: readers reach the site, the admin API only on the admin name, forwarded addresses replaced', async (t) => {
  const guide = await readFile(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  const example = /```nginx\n([\s\S]*?)```/.exec(guide)?.[1];
  if (!example) throw new Error('no nginx example in docs/operations.md');

  const [sitePort, adminPort, proxyPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const app = await startAnalyticsAppliance({
    overrides: {
      server: {
        host: '127.0.0.1',
        port: sitePort,
        adminListen: { host: '127.0.0.1', port: adminPort },
        trustProxy: true,
        maxConnectionsPerAddress: 1024,
      },
      feedback: { perClientPerMinute: 2, perPagePerMinute: 1000, globalPerMinute: 1000 },
    },
    deploy: false,
  });
  t.teardown(() => app.close());
  const dir = await makeTempDir('enclave-nginx-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // Deployed through the admin listener: the site port has no admin API.
  await writeBundle(join(dir, 'site.zip'), 'v1');
  const admin = applianceFetch(app.adminUrl, app.key);
  const deployed = await deployAndWait({ api: admin }, { bundleUrl: join(dir, 'site.zip') });
  t.is(deployed.status, 'active');

  await mkdir(join(dir, 'tls'));
  const openssl = spawn(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=enclave-test',
      '-keyout',
      join(dir, 'tls/test.key'),
      '-out',
      join(dir, 'tls/test.crt'),
    ],
    { stdio: 'ignore' },
  );
  t.is(await new Promise((r) => openssl.on('exit', r)), 0);
  const site = example
    .replaceAll('127.0.0.1:8080', `127.0.0.1:${sitePort}`)
    .replaceAll('127.0.0.1:8081', `127.0.0.1:${adminPort}`)
    .replaceAll('listen 443 ssl', `listen 127.0.0.1:${proxyPort} ssl`)
    .replace(/\/etc\/nginx\/tls\/\w+\.crt/g, join(dir, 'tls/test.crt'))
    .replace(/\/etc\/nginx\/tls\/\w+\.key/g, join(dir, 'tls/test.key'))
    .replace('allow 10.0.9.0/24;', 'allow 127.0.0.2;'); // the test's "operators' network": not us, at first
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `${k}_temp_path ${join(dir, k)};`).join(' ');
  const conf = `pid ${join(dir, 'nginx.pid')};\nerror_log ${join(dir, 'error.log')};\nevents {}\nhttp { access_log off; ${temp}\n${site}\n}\n`;
  await writeFile(join(dir, 'nginx.conf'), conf);
  const start = async (): Promise<ChildProcess> => {
    const nginx = spawn(NGINX, ['-c', join(dir, 'nginx.conf'), '-p', dir, '-g', 'daemon off;'], { stdio: 'ignore' });
    await waitUntil('nginx to listen', async () => (await viaProxy(proxyPort, 'x', '/_enclave/health').catch(() => null)) !== null);
    return nginx;
  };
  let nginx = await start();
  t.teardown(() => void nginx.kill());

  // Readers' names reach the site; the admin API is not there (404), nor on the admin name from
  // outside the operators' network (403 from nginx).
  t.is((await viaProxy(proxyPort, 'handbook.corp.internal', '/')).status, 200);
  const auth = { Authorization: `Bearer ${app.key}` };
  t.is((await viaProxy(proxyPort, 'handbook.corp.internal', '/v1/sites', { headers: auth })).status, 404);
  t.is((await viaProxy(proxyPort, 'enclave-admin.corp.internal', '/v1/sites', { headers: auth })).status, 403);

  // A client's own X-Forwarded-For is replaced, so changing it doesn't dodge the per-address limit.
  const post = (spoof: string) =>
    viaProxy(proxyPort, 'handbook.corp.internal', '/_enclave/feedback', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://handbook.corp.internal', 'X-Forwarded-For': spoof },
      body: JSON.stringify({ source: 'thumbs_only', path: '/', helpful: true }),
    });
  const statuses = [];
  for (const spoof of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) statuses.push((await post(spoof)).status);
  t.deepEqual(statuses, [201, 201, 429]);

  // From the operators' network, the admin name reaches the admin listener.
  nginx.kill();
  await new Promise((r) => nginx.once('exit', r));
  await writeFile(join(dir, 'nginx.conf'), conf.replace('allow 127.0.0.2;', 'allow 127.0.0.1;'));
  nginx = await start();
  const sites = await viaProxy(proxyPort, 'enclave-admin.corp.internal', '/v1/sites', { headers: auth });
  t.is(sites.status, 200, sites.body);
  t.is((await viaProxy(proxyPort, 'enclave-admin.corp.internal', '/')).status, 404, 'the admin listener serves no site pages');
});
