import test from 'ava';
import { systemClock } from '../../src/platform/Clock.js';
import { launchBrowser } from '../helpers/browser.js';
import { startReaderSite } from './readerSite.js';
import { startOidcProvider } from './startOidcProvider.js';

// An appliance and a provider per test, so this file does not use browserSuite (made for a static render).

test('Chromium signs in through the provider login form and lands on the page it asked for; state is single-use', async (t) => {
  const provider = await startOidcProvider(t);
  const { app } = await startReaderSite(t, { mode: 'oidc', ...provider.client(), groupsDelimiter: ',' }, systemClock);
  provider.register(`${app.url}/_enclave/auth/oidc-callback`, ' oncall , ,other');
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  let callbackUrl = '';
  page.on('request', (r) => {
    if (r.url().includes('/_enclave/auth/oidc-callback')) callbackUrl = r.url();
  });
  await page.goto(`${app.url}/oncall/runbook`);
  t.true(page.url().startsWith(provider.issuer), `at the provider: ${page.url()}`);
  await page.fill('input[name="login"]', 'reader-1');
  await page.fill('input[name="password"]', 'any');
  await page.click('button[type="submit"]');
  await page.waitForURL(`${app.url}/oncall/runbook`);
  t.true((await page.content()).includes('zebrafish'), 'the on-call page, opened by the group from the delimited claim');
  t.regex(callbackUrl, /[?&]state=/);
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === 'enclave_reader');
  t.truthy(session);
  t.true(session?.httpOnly);
  t.is(session?.sameSite, 'Lax');
  // The same callback again (a replayed state and code) is refused, with or without the browser's cookies.
  const replay = await fetch(callbackUrl, { redirect: 'manual' });
  t.is(replay.status, 400);
  const noState = await fetch(`${app.url}/_enclave/auth/oidc-callback?code=abc`, { redirect: 'manual' });
  t.is(noState.status, 400);
});

test('the provider down at sign-in: a clear page, and open pages still serve', async (t) => {
  const provider = await startOidcProvider(t);
  const { app } = await startReaderSite(t, { mode: 'oidc', ...provider.client(), scopes: ['openid'] }, systemClock);
  provider.setDown(true);
  const signIn = await fetch(`${app.url}/_enclave/auth/sign-in?returnTo=%2Fteam%2Fnotes`, { redirect: 'manual' });
  t.is(signIn.status, 503);
  const downPage = await signIn.text();
  t.regex(downPage, /cannot be reached/);
  t.regex(downPage, /Sign in to Access fixture/, "in the site's theme, with its name from docs.json");
  t.is((await fetch(`${app.url}/open/hello`)).status, 200);
  t.is((await fetch(`${app.url}/v1/sites`, { headers: { Authorization: `Bearer ${app.key}` } })).status, 200);
  provider.register(`${app.url}/_enclave/auth/oidc-callback`, []);
  provider.setDown(false);
  const again = await fetch(`${app.url}/_enclave/auth/sign-in?returnTo=%2Fteam%2Fnotes`, { redirect: 'manual' });
  t.is(again.status, 302, 'once the provider is back, sign-in goes to it');
  t.true(again.headers.get('location')?.startsWith(`${provider.issuer}/auth?`));
});
