import { createHmac } from 'node:crypto';
import test from 'ava';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import type { ManualClock } from '../../src/platform/Clock.js';
import { sessionCookie, startReaderSite } from './readerSite.js';

const LOGIN = 'https://login.corp.example/docs';
const NOW_S = Date.parse('2026-05-01T10:00:00.000Z') / 1000;

async function jwtSite(t: Parameters<typeof startReaderSite>[0]) {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const pem = await exportSPKI(publicKey);
  const started = await startReaderSite(t, {
    mode: 'jwt',
    loginUrl: LOGIN,
    publicKeyPem: pem,
    algorithms: ['RS256'],
    issuer: 'https://login.corp.example',
    audience: 'docs',
  });
  const sign = (claims: Record<string, unknown>, edit: (j: SignJWT) => SignJWT = (j) => j) =>
    edit(
      new SignJWT({ expiresAt: NOW_S + 3600, ...claims })
        .setProtectedHeader({ alg: 'RS256' })
        .setIssuer('https://login.corp.example')
        .setAudience('docs')
        .setIssuedAt(NOW_S),
    ).sign(privateKey);
  const callback = (token: string, redirect = '/') =>
    fetch(`${started.app.url}/_enclave/auth/jwt-callback?token=${encodeURIComponent(token)}&redirect=${encodeURIComponent(redirect)}`, {
      redirect: 'manual',
    });
  return { ...started, pem, sign, callback };
}

const status = (url: string, cookie?: string) =>
  fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} }).then((r) => r.status);

test('sign-in goes to the login URL with the way back; a signed User token with groups opens their pages', async (t) => {
  const { app, sign, callback } = await jwtSite(t);
  const start = await fetch(`${app.url}/_enclave/auth/sign-in?returnTo=%2Foncall%2Frunbook`, { redirect: 'manual' });
  t.is(start.status, 302);
  t.is(start.headers.get('location'), `${LOGIN}?redirect=%2Foncall%2Frunbook`);
  const res = await callback(await sign({ groups: ['oncall'] }), '/oncall/runbook');
  t.is(res.status, 303);
  t.is(res.headers.get('location'), '/oncall/runbook');
  const cookie = sessionCookie(res);
  t.is(await status(`${app.url}/oncall/runbook`, cookie), 200);
  t.is(await status(`${app.url}/partner/guide`, cookie), 200, 'one of the groups is enough');
  const full = await (await fetch(`${app.url}/llms-full.txt`, { headers: { cookie } })).text();
  t.true(full.includes('zebrafish') && full.includes('pangolin'));
  // The page callback reads a token from the URL fragment (never logged) with its one hashed script.
  const fragment = await fetch(`${app.url}/_enclave/auth/jwt-callback?redirect=%2F`);
  t.is(fragment.status, 200);
  t.regex(fragment.headers.get('content-security-policy') ?? '', /script-src 'sha256-[A-Za-z0-9+/=]+'/);
});

test('the session ends with the token: expiresAt caps the cookie', async (t) => {
  const { app, sign, callback, clock } = await jwtSite(t);
  const cookie = sessionCookie(await callback(await sign({ expiresAt: NOW_S + 60 })));
  t.is(await status(`${app.url}/team/notes`, cookie), 200);
  (clock as ManualClock).advance(61_000);
  t.is(await status(`${app.url}/team/notes`, cookie), 302);
});

test('alg none, HMAC keyed with the public key, wrong issuer or audience, and expired tokens are refused', async (t) => {
  const { sign, callback, pem } = await jwtSite(t);
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const claims = { iss: 'https://login.corp.example', aud: 'docs', expiresAt: NOW_S + 3600, groups: ['oncall'] };
  const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
  t.is((await callback(none)).status, 401, 'alg none');
  const hsInput = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  const hs = `${hsInput}.${createHmac('sha256', pem).update(hsInput).digest('base64url')}`;
  t.is((await callback(hs)).status, 401, 'HS256 keyed with the public key');
  t.is((await callback(await sign({}, (j) => j.setIssuer('https://evil.example')))).status, 401, 'issuer');
  t.is((await callback(await sign({}, (j) => j.setAudience('other')))).status, 401, 'audience');
  t.is((await callback(await sign({ expiresAt: NOW_S - 1 }))).status, 401, 'expired');
  t.is((await callback(await sign({ expiresAt: undefined }))).status, 401, 'no expiry');
  const forged = (await sign({})).split('.');
  forged[1] = b64({ ...claims });
  t.is((await callback(forged.join('.'))).status, 401, 'payload swapped under a valid signature');
});

test('groups only come from the groups claim: another claim naming a group opens nothing', async (t) => {
  const { app, sign, callback } = await jwtSite(t);
  const cookie = sessionCookie(await callback(await sign({ roles: ['oncall'], group: 'oncall', content: { groups: ['oncall'] } })));
  t.is(await status(`${app.url}/team/notes`, cookie), 200);
  t.is(await status(`${app.url}/oncall/runbook`, cookie), 404);
});
