import test from 'ava';
import { request } from 'node:http';
import { startTestAppliance } from '../helpers/testAppliance.js';

/** GET with exactly these headers (node:http adds no Sec-Fetch-* or Origin of its own). */
function get(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

test('admin API calls with a key from a web page: refused on the docs listener, only same-origin ones pass on the dashboard listener', async (t) => {
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  t.not(app.dashboardUrl, app.url);
  const auth = { Authorization: `Bearer ${app.key}` };
  const path = `/v1/projects/${app.projectId}`;
  const docsOrigin = new URL(app.url).origin;
  const dashOrigin = new URL(app.dashboardUrl).origin;

  // Scripts, curl and the CLI send no Sec-Fetch-Site and no Origin: unaffected on both.
  t.is(await get(`${app.url}${path}`, auth), 200);
  t.is(await get(`${app.dashboardUrl}${path}`, auth), 200);
  // A typed address or bookmark (no page chose to send it).
  t.is(await get(`${app.url}${path}`, { ...auth, 'Sec-Fetch-Site': 'none' }), 200);

  // The docs listener: whatever page sent it.
  for (const site of ['same-origin', 'same-site', 'cross-site'])
    t.is(await get(`${app.url}${path}`, { ...auth, 'Sec-Fetch-Site': site }), 403, `docs listener, Sec-Fetch-Site ${site}`);
  t.is(await get(`${app.url}${path}`, { ...auth, Origin: docsOrigin }), 403, 'docs listener, Origin only (older browsers)');
  t.is(await get(`${app.url}/_enclave/admin`, {}), 404, 'no dashboard on the docs listener');

  // The dashboard listener: its own page only.
  t.is(await get(`${app.dashboardUrl}${path}`, { ...auth, 'Sec-Fetch-Site': 'same-origin', Origin: dashOrigin }), 200);
  t.is(await get(`${app.dashboardUrl}${path}`, { ...auth, Origin: dashOrigin }), 200, 'Origin only, its own');
  t.is(
    await get(`${app.dashboardUrl}${path}`, { ...auth, 'Sec-Fetch-Site': 'same-site', Origin: docsOrigin }),
    403,
    'a docs page on the sibling port',
  );
  t.is(await get(`${app.dashboardUrl}${path}`, { ...auth, 'Sec-Fetch-Site': 'cross-site' }), 403);
  t.is(await get(`${app.dashboardUrl}${path}`, { ...auth, Origin: docsOrigin }), 403, 'Origin only, the docs');
  t.is(await get(`${app.dashboardUrl}${path}`, { ...auth, Origin: 'null' }), 403, 'an opaque origin (sandboxed frame, file://)');
  t.is(await get(`${app.dashboardUrl}/_enclave/admin`, { 'Sec-Fetch-Site': 'none' }), 200, 'the dashboard itself');
  t.is(await get(`${app.dashboardUrl}/guides/start`, {}), 404, 'no docs on the dashboard listener');
});

test('with server.adminListen the dashboard is on the admin listener and no third listener is opened', async (t) => {
  const app = await startTestAppliance({ overrides: { server: { adminListen: { host: '127.0.0.1', port: 0 } } } });
  t.teardown(() => app.close());
  t.is(app.dashboardUrl, app.adminUrl);
  const auth = { Authorization: `Bearer ${app.key}` };
  t.is(await get(`${app.adminUrl}/_enclave/admin`, {}), 200);
  t.is(await get(`${app.adminUrl}/_enclave/admin/session`, { ...auth, 'Sec-Fetch-Site': 'same-origin' }), 200);
  t.is(await get(`${app.adminUrl}/_enclave/admin/session`, { ...auth, 'Sec-Fetch-Site': 'same-site' }), 403);
  t.is(await get(`${app.url}/_enclave/admin`, {}), 404);
});
