import test from 'ava';
import { connect } from 'node:net';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeBundle } from '../deploy/helpers/testBundles.js';
import { applianceFetch, makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';

/** Sends one raw HTTP/1.1 request (any Host, even malformed) and resolves with the status code. */
function rawStatus(
  port: number,
  request: { method?: string; path: string; host: string; headers?: string[]; body?: string },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8').on('data', (c: string) => {
      data += c;
      const status = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (status) {
        socket.destroy();
        resolve(Number(status[1]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`closed without a status line: ${JSON.stringify(data)}`)));
    const body = request.body ?? '';
    const lines = [
      `${request.method ?? 'GET'} ${request.path} HTTP/1.1`,
      `Host: ${request.host}`,
      'Connection: close',
      ...(request.headers ?? []),
    ];
    if (body) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
  });
}

async function deployTestSite(
  app: { api: (path: string, init?: { method?: string; json?: unknown }) => Promise<Response> },
  dir: string,
): Promise<void> {
  await writeBundle(join(dir, 'v1.zip'), 'v1');
  const res = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: join(dir, 'v1.zip') } });
  if (res.status !== 200) throw new Error(`deploy failed: ${res.status} ${await res.text()}`);
}

const feedback = JSON.stringify({ source: 'contextual', path: '/guides/start', helpful: true });

test('with adminHosts and siteHosts set, readers on a site host keep feedback, health and ready; the admin API answers only admin hosts', async (t) => {
  const outside = await makeTempDir('enclave-hosts-');
  t.teardown(() => rm(outside, { recursive: true, force: true }));
  const app = await startTestAppliance({
    overrides: {
      server: { adminHosts: ['admin.local'], siteHosts: ['docs.local'] },
      sites: [{ domain: 'docs.test.internal', source: outside }],
    },
  });
  t.teardown(() => app.close());
  const adminApi = (path: string, host: string) => rawStatus(app.port, { path, host, headers: [`Authorization: Bearer ${app.key}`] });
  await writeBundle(join(outside, 'v1.zip'), 'v1');
  t.is(
    await rawStatus(app.port, {
      method: 'POST',
      path: '/v1/deployments',
      host: 'admin.local',
      headers: [`Authorization: Bearer ${app.key}`],
      body: JSON.stringify({ bundleUrl: join(outside, 'v1.zip') }),
    }),
    200,
  );

  // Readers on the site host.
  t.is(await rawStatus(app.port, { path: '/guides/start', host: 'docs.local' }), 200, 'the site');
  t.is(await rawStatus(app.port, { path: '/_enclave/health', host: 'docs.local' }), 200, 'health on the site host (the widget checks it)');
  t.is(await rawStatus(app.port, { path: '/_enclave/ready', host: 'docs.local' }), 200, 'ready on the site host');
  t.is(
    await rawStatus(app.port, { method: 'POST', path: '/_enclave/feedback', host: 'docs.local', body: feedback }),
    201,
    'feedback on the site host',
  );
  t.is(await rawStatus(app.port, { path: '/_enclave/health', host: '127.0.0.1:8080' }), 200, 'a HEALTHCHECK by address');
  t.is(await adminApi(`/v1/projects/${app.projectId}`, 'docs.local'), 404, 'no admin API on the site host');
  t.is(await adminApi('/openapi.json', 'docs.local'), 404);
  // The admin host.
  t.is(await adminApi(`/v1/projects/${app.projectId}`, 'admin.local'), 200);
  t.is(await adminApi(`/v1/projects/${app.projectId}`, 'ADMIN.local:8080'), 200, 'names compare case-insensitively, any port');
  t.is(await rawStatus(app.port, { path: '/guides/start', host: 'admin.local' }), 404, 'no site on the admin host');
  t.is(await adminApi(`/v1/projects/${app.projectId}`, 'other.local'), 404);
});

test('a Host with userinfo, whitespace, a comma or a bad port is refused with 400 before any routing', async (t) => {
  const app = await startTestAppliance({ overrides: { server: { adminHosts: ['admin.local'], siteHosts: ['docs.local'] } } });
  t.teardown(() => app.close());
  const bad = [
    'docs.local@admin.local',
    'user:pw@admin.local',
    'docs.local admin.local',
    'admin.local\tx',
    'admin.local,docs.local',
    'admin.local:99999',
    'admin.local:0',
    'admin.local:80a',
    'admin.local:',
    '[::1',
    'admin.local/x',
  ];
  const statuses: Record<string, number> = {};
  for (const host of bad) {
    statuses[host] = await rawStatus(app.port, {
      path: `/v1/projects/${app.projectId}`,
      host,
      headers: [`Authorization: Bearer ${app.key}`],
    });
    t.is(statuses[host], 400, `Host ${JSON.stringify(host)} on the admin API`);
    t.is(await rawStatus(app.port, { path: '/', host }), 400, `Host ${JSON.stringify(host)} on the site`);
  }
  for (const host of ['admin.local', 'admin.local:8080', '127.0.0.1:1', '[::1]:8080', 'docs_svc']) {
    t.not(await rawStatus(app.port, { path: '/_enclave/health', host }), 400, `Host ${host} is well-formed`);
  }
  t.log(JSON.stringify(statuses));
});

test('behind a trusted proxy X-Forwarded-Host is checked the same way; its first value is the one routed', async (t) => {
  const app = await startTestAppliance({
    overrides: { server: { adminHosts: ['admin.local'], siteHosts: ['docs.local'], trustProxy: true } },
  });
  t.teardown(() => app.close());
  const viaProxy = (forwarded: string) =>
    rawStatus(app.port, {
      path: `/v1/projects/${app.projectId}`,
      host: 'proxy.internal',
      headers: [`Authorization: Bearer ${app.key}`, `X-Forwarded-Host: ${forwarded}`],
    });
  t.is(await viaProxy('docs.local@admin.local'), 400);
  t.is(await viaProxy('admin.local:99999'), 400);
  t.is(await viaProxy('admin.local'), 200);
  t.is(await viaProxy('admin.local, proxy.internal'), 200, 'a chain of proxies appends; the first value counts');
  t.is(await viaProxy('docs.local, admin.local'), 404, 'and only the first');
});

test('server.adminListen: the admin API answers only on its own listener, the site port serves no admin path', async (t) => {
  const outside = await makeTempDir('enclave-admin-listen-');
  t.teardown(() => rm(outside, { recursive: true, force: true }));
  const app = await startTestAppliance({
    overrides: { server: { adminListen: { host: '127.0.0.1', port: 0 } }, sites: [{ domain: 'docs.test.internal', source: outside }] },
  });
  t.teardown(() => app.close());
  t.not(app.adminUrl, app.url);
  const admin = applianceFetch(app.adminUrl, app.key);
  const site = applianceFetch(app.url, app.key);
  await deployTestSite({ api: admin }, outside);

  t.is((await admin(`/v1/projects/${app.projectId}`)).status, 200, 'admin API on the admin listener');
  t.is((await admin('/openapi.json')).status, 200);
  t.is((await admin('/guides/start')).status, 404, 'no site on the admin listener');
  t.is((await admin('/_enclave/health', { key: null })).status, 200, 'health on the admin listener');

  t.is((await site(`/v1/projects/${app.projectId}`)).status, 404, 'no admin API on the site port, even with a valid key');
  t.is((await site('/v1/deployments', { method: 'POST', json: { bundleUrl: join(outside, 'v1.zip') } })).status, 404);
  t.is((await site('/openapi.json')).status, 404);
  t.is((await site('/guides/start', { key: null })).status, 200, 'the site');
  t.is((await site('/_enclave/health', { key: null })).status, 200, 'health on the site port');
  t.is((await site('/_enclave/ready', { key: null })).status, 200, 'ready on the site port');
  t.is(
    (await site('/_enclave/feedback', { key: null, method: 'POST', body: feedback, headers: { 'Content-Type': 'application/json' } }))
      .status,
    201,
    'feedback on the site port',
  );
  t.is(
    await rawStatus(Number(new URL(app.adminUrl).port), { path: '/v1/projects', host: 'a@b' }),
    400,
    'malformed Host refused on the admin listener too',
  );
});
