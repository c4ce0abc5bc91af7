import test from 'ava';
import { connect } from 'node:net';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeBundle } from '../deploy/helpers/testBundles.js';
import { applianceFetch, makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';

/** One raw HTTP/1.1 request with any Host; resolves with the status and the body. */
function rawRequest(port: number, path: string, host: string, headers: string[] = []): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('utf8').on('data', (c: string) => (data += c));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (!status) return reject(new Error(`no status line: ${JSON.stringify(data.slice(0, 200))}`));
      resolve({ status: Number(status[1]), body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    socket.write([`GET ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: close', ...headers, '', ''].join('\r\n'));
  });
}

/** The reserved admin paths in other letter cases (and with a trailing slash), as the red team sent them. */
const VARIANTS = [
  '/openapi.json/',
  '/_enclave/ADMIN',
  '/_enclave/Admin',
  '/_enclave/admin/Session',
  '/_enclave/Admin/Session',
  '/_enclave/ADMIN/SESSION',
  '/OPENAPI.JSON',
  '/V1/projects',
];

test('reserved paths in another letter case never reach the dashboard or the admin API on a reader host', async (t) => {
  const docs = await makeTempDir('enclave-case-');
  t.teardown(() => rm(docs, { recursive: true, force: true }));
  const app = await startTestAppliance({
    overrides: {
      server: { adminHosts: ['admin.local'], siteHosts: ['docs.local'] },
      sites: [{ domain: 'docs.test.internal', source: docs }],
    },
  });
  t.teardown(() => app.close());
  const auth = [`Authorization: Bearer ${app.key}`];
  const wrong = [`Authorization: Bearer ${app.key.slice(0, -1)}${app.key.endsWith('A') ? 'B' : 'A'}`];
  for (const path of VARIANTS) {
    for (const host of ['docs.local', 'other.local']) {
      const valid = await rawRequest(app.port, path, host, auth);
      const invalid = await rawRequest(app.port, path, host, wrong);
      t.not(valid.status, 200, `${path} on ${host} with a valid key`);
      // Whether a key is valid must not be learnable there: both answers alike.
      t.is(valid.status, invalid.status, `${path} on ${host}: a valid and an invalid key get the same status`);
      t.false(valid.body.includes(app.projectId), `${path} on ${host} names no project`);
    }
  }
  // The exact paths still answer: the admin API on the admin host, the dashboard on its own listener.
  t.is((await rawRequest(app.port, `/v1/projects/${app.projectId}`, 'admin.local', auth)).status, 200);
  t.is((await rawRequest(Number(new URL(app.dashboardUrl).port), '/_enclave/admin/session', 'admin.local', auth)).status, 200);
});

test('reserved paths in another letter case never reach the dashboard or the admin API on the adminListen site port', async (t) => {
  const docs = await makeTempDir('enclave-case-listen-');
  t.teardown(() => rm(docs, { recursive: true, force: true }));
  const app = await startTestAppliance({
    overrides: { server: { adminListen: { host: '127.0.0.1', port: 0 } }, sites: [{ domain: 'docs.test.internal', source: docs }] },
  });
  t.teardown(() => app.close());
  await writeBundle(join(docs, 'v1.zip'), 'v1');
  const admin = applianceFetch(app.adminUrl, app.key);
  t.is((await admin('/v1/deployments', { method: 'POST', json: { bundleUrl: join(docs, 'v1.zip') } })).status, 200);
  const auth = [`Authorization: Bearer ${app.key}`];
  for (const path of ['/_enclave/admin', '/_enclave/admin/session', ...VARIANTS]) {
    const answer = await rawRequest(app.port, path, '127.0.0.1', auth);
    t.not(answer.status, 200, `${path} on the site port`);
    t.false(answer.body.includes(app.projectId), `${path} on the site port names no project`);
  }
  t.is((await rawRequest(Number(new URL(app.adminUrl).port), '/_enclave/admin/session', '127.0.0.1', auth)).status, 200);
});
