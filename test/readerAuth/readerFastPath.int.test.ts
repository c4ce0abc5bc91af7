import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { ReaderAuthFeature } from '../../src/features/readerAuth/readerAuthFeature.js';
import type { ManualClock } from '../../src/platform/Clock.js';
import type { TestAppliance } from '../helpers/testAppliance.js';
import { PASSWORD, postSignIn, sessionCookie, startReaderSite } from './readerSite.js';

const DOMAIN = 'docs.example.com';

function readerGate(app: TestAppliance) {
  const feature = app.features.all.find((f) => f.name === 'readerAuth') as ReaderAuthFeature;
  return feature.gate;
}

/**
 * A server of its own that hands each request straight to the appliance's site handler and
 * records, per request, whether the handler answered synchronously (returned no promise).
 */
async function recordingSite(t: import('ava').ExecutionContext, app: TestAppliance): Promise<{ url: string; synchronous: boolean[] }> {
  const handler = app.features.deployments.siteHandler!;
  const synchronous: boolean[] = [];
  const server: Server = createServer((req, res) => {
    const [path, query = ''] = (req.url ?? '/').split('?');
    const pending = handler({ req, res, host: '127.0.0.1', path, query, requestId: 'fast-path', address: '127.0.0.1' });
    synchronous.push(pending === undefined);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.teardown(() => new Promise<void>((done) => server.close(() => done())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, synchronous };
}

test('a signed-in reader’s page is answered synchronously once their view of it is known, privately, as on the open path', async (t) => {
  const { app } = await startReaderSite(t);
  const cookie = sessionCookie(await postSignIn(app, PASSWORD));
  const site = await recordingSite(t, app);
  const get = (path: string) => fetch(`${site.url}${path}`, { headers: { cookie }, redirect: 'manual' });
  const first = await get('/team/notes');
  t.is(first.status, 200);
  await first.text();
  const again = await get('/team/notes');
  t.is(again.status, 200);
  t.is(again.headers.get('cache-control'), 'private, no-cache');
  t.regex(again.headers.get('vary') ?? '', /Cookie/);
  t.true((await again.text()).includes('quokka'));
  t.true(site.synchronous[1], 'the second view of the page took no promise');
  // A page the reader may not open stays a 404 from the memo too, answered at once.
  for (let i = 0; i < 2; i++) t.is((await get('/oncall/runbook')).status, 404);
  t.true(site.synchronous[3]);
});

test('the gate gives one reader object per session, and none once it expired, was signed out or the site changed', async (t) => {
  const { app, clock: moved } = await startReaderSite(t);
  const clock = moved as ManualClock;
  const gate = readerGate(app);
  const cookie = sessionCookie(await postSignIn(app, PASSWORD));
  const header = `theme=dark; ${cookie}`;
  const at = gate(DOMAIN, header);
  t.truthy(at?.reader);
  t.is(gate(DOMAIN, header), at, 'remembered: the same object, so memos keyed by the reader hold');
  t.is(gate(DOMAIN, cookie), at, 'the same session whatever else the Cookie header carries');
  clock.advance(2 * 3_600_000 + 1000);
  t.is(gate(DOMAIN, header)?.reader, null, 'expired while remembered');
  clock.advance(-(2 * 3_600_000 + 1000));
  t.truthy(gate(DOMAIN, header)?.reader);
  const out = await fetch(`${app.url}/_enclave/auth/sign-out`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, Origin: app.url },
  });
  t.is(out.status, 303);
  t.is(gate(DOMAIN, header)?.reader, null, 'signed out: never from the memo');
  const other = sessionCookie(await postSignIn(app, PASSWORD));
  t.truthy(gate(DOMAIN, other)?.reader);
  const site = app.control.sites.find(DOMAIN)!;
  await app.control.sites.upsert({ ...site, createdAt: clock.now().toISOString(), auth: { mode: 'none' } });
  t.is(gate(DOMAIN, other), null, 'sign-in switched off: the site is open');
});
