import test from 'ava';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '../helpers/testAppliance.js';
import { deployAndWait, getWithHost, requestWithHost, startLoggedAppliance } from './helpers/loggedAppliance.js';
import { makeSiteFiles, writeBundle } from './helpers/testBundles.js';

test('cached bodies: a new activation (or a rollback) serves its own bytes at once; ETag, 304, HEAD and Range stay right', async (t) => {
  const dir = await makeTempDir('enclave-cache-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const v1 = await writeBundle(join(dir, 'v1.zip'), 'v1');
  const v2 = await writeBundle(join(dir, 'v2.zip'), 'v2');
  const app = await startLoggedAppliance();
  t.teardown(() => app.close());
  const page = `${app.url}/guides/start`;
  const identity = { 'Accept-Encoding': 'identity' };
  const get = (headers: Record<string, string> = {}) => getWithHost(page, '127.0.0.1', { ...identity, ...headers });

  await deployAndWait(app, { bundleUrl: join(dir, 'v1.zip') });
  const first = await get();
  const second = await get();
  t.is(first.body, v1['guides/start.html'].toString());
  t.is(second.body, first.body, 'the second answer (from memory) is the same bytes');
  const etag1 = String(first.headers.etag);

  await deployAndWait(app, { bundleUrl: join(dir, 'v2.zip') });
  const after = await get();
  t.is(after.body, v2['guides/start.html'].toString(), 'the new version is served at once, not a cached v1 body');
  const etag2 = String(after.headers.etag);
  t.not(etag2, etag1);
  t.is((await get({ 'If-None-Match': etag1 })).status, 200, 'a v1 ETag no longer matches');
  const notModified = await get({ 'If-None-Match': `W/${etag2}` });
  t.is(notModified.status, 304);
  t.is(notModified.headers.etag, etag2);
  t.is(notModified.body, '');

  const size = v2['guides/start.html'].length;
  const head = await requestWithHost(page, '127.0.0.1', { method: 'HEAD', headers: identity });
  t.is(head.status, 200);
  t.is(Number(head.headers['content-length']), size);
  t.is(head.body, '');
  t.is(after.headers['accept-ranges'], undefined, 'pages answer ranges without advertising them');
  const ranged = await get({ Range: 'bytes=0-9' });
  t.is(ranged.status, 206);
  t.is(ranged.headers['content-range'], `bytes 0-9/${size}`);
  t.is(ranged.body, v2['guides/start.html'].subarray(0, 10).toString());
  const suffix = await get({ Range: 'bytes=-5', 'Accept-Encoding': 'gzip, br' });
  t.is(suffix.status, 206);
  t.is(suffix.headers['content-encoding'], undefined, 'a range is served from the identity bytes');
  t.is(suffix.body, v2['guides/start.html'].subarray(size - 5).toString());
  t.is((await get({ Range: 'bytes=0-9', 'If-Range': etag2 })).status, 206);
  const stale = await get({ Range: 'bytes=0-9', 'If-Range': etag1 });
  t.is(stale.status, 200, 'If-Range with an old ETag gets the whole new file');
  t.is(stale.body, v2['guides/start.html'].toString());
  const past = await get({ Range: `bytes=${size}-` });
  t.is(past.status, 416);
  t.is(past.headers['content-range'], `bytes */${size}`);

  const rolled = await app.api('/v1/deployments/rollback', { method: 'POST', json: {} });
  t.is(rolled.status, 200);
  t.is((await get()).body, v1['guides/start.html'].toString(), 'a rollback serves the kept version’s bytes');
  t.is((await get()).headers.etag, etag1);
});

test('the same path on two sites is answered from each site’s own version', async (t) => {
  const dir = await makeTempDir('enclave-cache-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const a = await writeBundle(join(dir, 'a.zip'), 'a1', { files: makeSiteFiles('a1'), manifestFields: { domain: 'a.docs.internal' } });
  const b = await writeBundle(join(dir, 'b.zip'), 'b1', { files: makeSiteFiles('b1'), manifestFields: { domain: 'b.docs.internal' } });
  const sites = ['a.docs.internal', 'b.docs.internal'].map((domain) => ({ domain, source: dir }));
  const app = await startLoggedAppliance({ overrides: { sites } });
  t.teardown(() => app.close());
  await deployAndWait(app, { bundleUrl: join(dir, 'a.zip'), domain: 'a.docs.internal' });
  await deployAndWait(app, { bundleUrl: join(dir, 'b.zip'), domain: 'b.docs.internal' });
  for (let i = 0; i < 3; i++) {
    t.is(
      (await getWithHost(`${app.url}/reference`, 'a.docs.internal', { 'Accept-Encoding': 'identity' })).body,
      a['reference.html'].toString(),
    );
    t.is(
      (await getWithHost(`${app.url}/reference`, 'b.docs.internal', { 'Accept-Encoding': 'identity' })).body,
      b['reference.html'].toString(),
    );
  }
});
