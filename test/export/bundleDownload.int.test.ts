import test from 'ava';
import { signBundleLink } from '../../src/bundle/links/bundleLinks.js';
import { SigningKeyring } from '../../src/platform/SigningKeyring.js';
import { ManualClock } from '../../src/platform/Clock.js';
import { makeTempDir, makeTestConfig, startTestAppliance } from '../helpers/testAppliance.js';
import { exportToBundle, makeTinySite, sha256 } from './exportTestHelpers.js';

const FORBIDDEN_SIG = { error: 'invalid signature' };

/** Replaces one query parameter (or removes it with null) in a URL. */
function withParam(url: string, name: string, value: string | null): string {
  const u = new URL(url);
  if (value === null) u.searchParams.delete(name);
  else u.searchParams.set(name, value);
  return u.toString();
}

/** Changes one character in the middle of a string to a different one from the base64url alphabet. */
function flipChar(s: string, at = Math.floor(s.length / 2)): string {
  return s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
}

test('signed download: headers, HEAD, Range/206/416, If-Range, If-None-Match/304, expiry with a manual clock', async (t) => {
  const clock = new ManualClock(new Date());
  const source = await makeTinySite();
  const app = await startTestAppliance({ clock, overrides: { sites: [{ domain: 'tiny.test', source }] } });
  t.teardown(() => app.close());
  const { link } = await exportToBundle(app, 'tiny.test');

  const full = await fetch(link.bundleUrl);
  t.is(full.status, 200);
  const bytes = Buffer.from(await full.arrayBuffer());
  t.is(bytes.length, link.sizeBytes);
  t.is(sha256(bytes), link.sha256);
  t.is(full.headers.get('content-type'), 'application/zip');
  t.is(full.headers.get('content-length'), String(link.sizeBytes));
  t.is(full.headers.get('etag'), `"${link.sha256}"`);
  t.is(full.headers.get('accept-ranges'), 'bytes');
  t.is(full.headers.get('cache-control'), 'no-store');
  t.regex(full.headers.get('content-disposition')!, /^attachment; filename="tiny\.test-.+\.zip"$/);

  const head = await fetch(link.bundleUrl, { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(head.headers.get('content-length'), String(link.sizeBytes));
  t.is(head.headers.get('etag'), `"${link.sha256}"`);
  t.is((await head.arrayBuffer()).byteLength, 0);

  const part = await fetch(link.bundleUrl, { headers: { Range: 'bytes=10-109' } });
  t.is(part.status, 206);
  t.is(part.headers.get('content-range'), `bytes 10-109/${link.sizeBytes}`);
  t.is(part.headers.get('content-length'), '100');
  t.deepEqual(Buffer.from(await part.arrayBuffer()), bytes.subarray(10, 110));

  const tail = await fetch(link.bundleUrl, { headers: { Range: 'bytes=-22' } });
  t.is(tail.status, 206);
  t.deepEqual(Buffer.from(await tail.arrayBuffer()), bytes.subarray(bytes.length - 22), 'suffix range: the zip end record');

  const rest = await fetch(link.bundleUrl, { headers: { Range: `bytes=${link.sizeBytes - 5}-` } });
  t.is(rest.status, 206);
  t.deepEqual(Buffer.from(await rest.arrayBuffer()), bytes.subarray(link.sizeBytes - 5));

  const headRange = await fetch(link.bundleUrl, { method: 'HEAD', headers: { Range: 'bytes=0-9' } });
  t.is(headRange.status, 206);
  t.is(headRange.headers.get('content-length'), '10');

  const beyond = await fetch(link.bundleUrl, { headers: { Range: `bytes=${link.sizeBytes}-` } });
  t.is(beyond.status, 416);
  t.is(beyond.headers.get('content-range'), `bytes */${link.sizeBytes}`);

  const stale = await fetch(link.bundleUrl, { headers: { Range: 'bytes=0-9', 'If-Range': '"somethingelse"' } });
  t.is(stale.status, 200, 'If-Range naming another version gets the whole file');
  t.is((await stale.arrayBuffer()).byteLength, link.sizeBytes);
  const fresh = await fetch(link.bundleUrl, { headers: { Range: 'bytes=0-9', 'If-Range': `"${link.sha256}"` } });
  t.is(fresh.status, 206);
  await fresh.arrayBuffer();

  const cached = await fetch(link.bundleUrl, { headers: { 'If-None-Match': `"${link.sha256}"` } });
  t.is(cached.status, 304);
  const changed = await fetch(link.bundleUrl, { headers: { 'If-None-Match': '"other"' } });
  t.is(changed.status, 200);
  await changed.arrayBuffer();

  // Valid until the last second, refused from the expiry instant on.
  const expiresAt = Date.parse(link.expiresAt);
  clock.set(expiresAt - 1000);
  const lastSecond = await fetch(link.bundleUrl, { method: 'HEAD' });
  t.is(lastSecond.status, 200);
  clock.set(expiresAt);
  const expired = await fetch(link.bundleUrl);
  t.is(expired.status, 403);
  t.deepEqual(await expired.json(), { error: 'link expired' });
  // Pushing `expires` forward on an expired link is tampering, not a renewal.
  const extended = await fetch(withParam(link.bundleUrl, 'expires', String(Math.floor(expiresAt / 1000) + 3600)));
  t.is(extended.status, 403);
  t.deepEqual(await extended.json(), FORBIDDEN_SIG);
});

test('tampering with any signed part → 403 invalid signature; a valid signature for an unknown job or file → 404', async (t) => {
  const source = await makeTinySite();
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'tiny.test', source }] } });
  t.teardown(() => app.close());
  const { job, link } = await exportToBundle(app, 'tiny.test');
  const url = new URL(link.bundleUrl);
  const [, , jobId, file] = url.pathname.split('/');
  const sig = url.searchParams.get('sig')!;
  const expires = url.searchParams.get('expires')!;
  const kid = url.searchParams.get('kid')!;
  const otherJob = 'se_0123456789abcdef';

  const tampered: Record<string, string> = {
    'job id in path': link.bundleUrl.replace(`/${jobId}/`, `/${otherJob}/`),
    'file in path': link.bundleUrl.replace(`/${file}?`, `/${file.replace('.zip', '-x.zip')}?`),
    'expires earlier': withParam(link.bundleUrl, 'expires', String(Number(expires) - 1)),
    'expires later': withParam(link.bundleUrl, 'expires', String(Number(expires) + 1)),
    'expires not a number': withParam(link.bundleUrl, 'expires', `${expires}.0`),
    'kid of no key': withParam(link.bundleUrl, 'kid', 'k00000000'),
    'sig changed': withParam(link.bundleUrl, 'sig', flipChar(sig)),
    'sig last char changed': withParam(link.bundleUrl, 'sig', flipChar(sig, sig.length - 1)),
    'sig truncated': withParam(link.bundleUrl, 'sig', sig.slice(0, -2)),
    'sig padded': withParam(link.bundleUrl, 'sig', `${sig}=`),
    'sig missing': withParam(link.bundleUrl, 'sig', null),
    'expires missing': withParam(link.bundleUrl, 'expires', null),
    'kid missing': withParam(link.bundleUrl, 'kid', null),
  };
  for (const [label, bad] of Object.entries(tampered)) {
    const res = await fetch(bad);
    t.is(res.status, 403, label);
    t.deepEqual(await res.json(), FORBIDDEN_SIG, label);
  }
  // The signature does not depend on the host used to reach the appliance.
  const viaLocalhost = await fetch(link.bundleUrl.replace('127.0.0.1', 'localhost'), { method: 'HEAD' });
  t.is(viaLocalhost.status, 200);
  t.is((await fetch(link.bundleUrl, { method: 'HEAD' })).status, 200, 'the untouched link still works');

  const keyring = SigningKeyring.load(app.dataDir);
  const now = new Date();
  for (const target of [
    { jobId: otherJob, file },
    { jobId: job.jobId, file: 'other.zip' },
  ]) {
    const signed = signBundleLink(keyring, target, now, 60);
    const res = await fetch(`${app.url}${signed.pathAndQuery}`);
    t.is(res.status, 404, JSON.stringify(target));
    t.truthy((await res.json()).error);
  }
  t.is(kid, keyring.active().kid);
});

test('key rotation: links signed before a rotation keep working; a retired key’s links are refused', async (t) => {
  const dataDir = await makeTempDir();
  const source = await makeTinySite();
  const overrides = { sites: [{ domain: 'tiny.test', source }] };
  let app = await startTestAppliance({ dataDir, overrides });
  const { job, link: before } = await exportToBundle(app, 'tiny.test');
  const oldKid = new URL(before.bundleUrl).searchParams.get('kid')!;
  const key = app.key;
  await app.stop();

  const ring = SigningKeyring.load(dataDir);
  const fresh = await ring.rotate(new Date());
  app = await startTestAppliance({ dataDir, overrides });
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${app.url}${path}`, { ...init, headers: { Authorization: `Bearer ${key}` } });
  const oldLink = before.bundleUrl.replace(/^http:\/\/[^/]+/, app.url);
  t.is((await fetch(oldLink, { method: 'HEAD' })).status, 200, 'old key still verifies');
  const after = await (await api(`/v1/static-export/jobs/${job.jobId}/bundle`, { method: 'POST' })).json();
  t.is(new URL(after.bundleUrl).searchParams.get('kid'), fresh.kid, 'new links use the new active key');
  t.is((await fetch(after.bundleUrl, { method: 'HEAD' })).status, 200);
  await app.stop();

  t.is(await SigningKeyring.load(dataDir).retire(oldKid), 'retired');
  app = await startTestAppliance({ dataDir, overrides });
  t.teardown(() => app.close());
  const refused = await fetch(before.bundleUrl.replace(/^http:\/\/[^/]+/, app.url));
  t.is(refused.status, 403);
  t.deepEqual(await refused.json(), { error: 'link retired' }, "a retired key's link says it was retired");
  t.is((await fetch(after.bundleUrl.replace(/^http:\/\/[^/]+/, app.url), { method: 'HEAD' })).status, 200);
});

test('link lifetime follows config.export.linkTtlSeconds and is capped at 7 days', async (t) => {
  t.throws(() => makeTestConfig('/tmp/unused', { export: { linkTtlSeconds: 7 * 86400 + 1 } }));
  t.notThrows(() => makeTestConfig('/tmp/unused', { export: { linkTtlSeconds: 7 * 86400 } }));
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const source = await makeTinySite();
  const app = await startTestAppliance({ clock, overrides: { sites: [{ domain: 'tiny.test', source }], export: { linkTtlSeconds: 90 } } });
  t.teardown(() => app.close());
  const { link } = await exportToBundle(app, 'tiny.test');
  t.is(link.expiresAt, '2026-05-01T10:01:30.000Z');
  clock.advance(89_000);
  t.is((await fetch(link.bundleUrl, { method: 'HEAD' })).status, 200);
  clock.advance(1_000);
  t.is((await fetch(link.bundleUrl, { method: 'HEAD' })).status, 403);
});
