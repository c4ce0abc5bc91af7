import test from 'ava';
import { systemClock } from '../../src/platform/Clock.js';
import { launchBrowser } from '../helpers/browser.js';
import { startReaderSite } from './readerSite.js';
import { type IdTokenTamper, startOidcProvider } from './startOidcProvider.js';

// The ID token of each attack is signed with the provider's real key: only its claims are wrong,
// so what refuses it is Enclave's check of nonce, issuer and audience, not a bad signature.
const ATTACKS: [string, IdTokenTamper][] = [
  ['a wrong nonce', (claims) => ({ ...claims, nonce: 'a-nonce-from-another-sign-in' })],
  ['a wrong issuer', (claims) => ({ ...claims, iss: 'http://127.0.0.1:9/not-the-provider' })],
  ['a wrong audience', (claims) => ({ ...claims, aud: 'another-client' })],
];

test('an ID token with a wrong nonce, issuer or audience, or a replayed code, ends on the sign-in error page with no session', async (t) => {
  const provider = await startOidcProvider(t);
  const { app } = await startReaderSite(t, { mode: 'oidc', ...provider.client() }, systemClock);
  provider.register(`${app.url}/_enclave/auth/oidc-callback`, ['oncall']);
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const context = await browser.newContext();
  const page = await context.newPage();
  let signedInAtProvider = false;
  const signIn = async () => {
    const callback = page.waitForResponse((r) => r.url().includes('/_enclave/auth/oidc-callback'));
    await page.goto(`${app.url}/oncall/runbook`);
    if (!signedInAtProvider) {
      // The provider's login form once; its session then sends later sign-ins straight back.
      await page.fill('input[name="login"]', 'reader-1');
      await page.fill('input[name="password"]', 'any');
      await page.click('button[type="submit"]');
      signedInAtProvider = true;
    }
    return callback;
  };
  const sessionCookie = async () => (await context.cookies(app.url)).find((c) => c.name === 'enclave_reader');

  for (const [attack, tamper] of ATTACKS) {
    provider.tamperIdToken(tamper);
    const answer = await signIn();
    t.is(answer.status(), 401, attack);
    t.regex(await answer.text(), /Sign-in did not succeed/, attack);
    t.is(await sessionCookie(), undefined, `${attack}: no session cookie`);
    t.is((await fetch(`${app.url}/open/hello`)).status, 200, `${attack}: open pages still serve`);
  }

  // The same re-signing with the claims left as they are signs in: the refusals above were the claims'.
  provider.tamperIdToken((claims) => claims);
  const good = await signIn();
  t.is(good.status(), 303);
  await page.waitForURL(`${app.url}/oncall/runbook`);
  t.true((await page.content()).includes('zebrafish'));
  t.truthy(await sessionCookie());

  // A replayed authorization code: a fresh sign-in (its own state and flow cookie) carrying the used code.
  const start = await fetch(`${app.url}/_enclave/auth/sign-in?returnTo=%2Foncall%2Frunbook`, { redirect: 'manual' });
  t.is(start.status, 302);
  const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? '';
  const flowCookie = (start.headers.get('set-cookie') ?? '').split(';')[0];
  const used = new URL(good.url());
  used.searchParams.set('state', state);
  const replay = await fetch(used.href, { redirect: 'manual', headers: { cookie: flowCookie } });
  t.is(replay.status, 401);
  t.regex(await replay.text(), /Sign-in did not succeed/);
  t.false((replay.headers.get('set-cookie') ?? '').includes('enclave_reader='), 'no session for a replayed code');
});
