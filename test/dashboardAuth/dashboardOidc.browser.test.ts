import test from 'ava';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { startTestAppliance } from '../helpers/testAppliance.js';
import { startOidcProvider } from '../readerAuth/startOidcProvider.js';

// An appliance and a provider per test (the dashboard signs in at the provider), so no browserSuite.

const ADMINS = 'enclave-admins';

async function dashboardWithProvider(t: Parameters<typeof startOidcProvider>[0]) {
  const provider = await startOidcProvider(t);
  const app = await startTestAppliance({
    overrides: {
      dashboard: {
        oidc: {
          ...provider.client('enclave-dashboard'),
          adminGroup: ADMINS,
          scope: 'write',
          sessionHours: 1,
        },
      },
    },
  });
  t.teardown(() => app.close());
  // Only admin-1 is in the admin group; everyone else is a reader.
  provider.register(
    `${app.dashboardUrl}/_enclave/admin/auth/callback`,
    (sub: string) => (sub === 'admin-1' ? ['docs', ADMINS] : ['docs']),
    'enclave-dashboard',
  );
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  return { provider, app, browser };
}

async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.fill('input[name="login"]', login);
  await page.fill('input[name="password"]', 'any');
  await page.click('button[type="submit"]');
}

test('an admin-group member signs in to the dashboard through the provider, works with a session key, and signing out revokes it', async (t) => {
  const { provider, app, browser } = await dashboardWithProvider(t);
  const page = await browser.newPage();
  await page.goto(`${app.dashboardUrl}/_enclave/admin`);
  await page.waitForSelector('#sso-link', { state: 'visible' });
  await page.click('#sso-link');
  t.true(page.url().startsWith(provider.issuer), `at the provider: ${page.url()}`);
  await signInAtProvider(page, 'admin-1');
  await page.waitForSelector('#dashboard', { state: 'visible' });
  t.is(new URL(page.url()).hash, '', 'nothing of the sign-in stays in the address');
  const key = (await page.evaluate(() => sessionStorage.getItem('enclave-admin-key'))) ?? '';
  t.regex(key, /^enc_/);
  // The admin API stays key-based: the session's key works like any other, and is listed as what it is.
  const sites = await fetch(`${app.url}/v1/sites`, { headers: { Authorization: `Bearer ${key}` } });
  t.is(sites.status, 200);
  const listed = (await (await app.api('/v1/keys')).json()) as {
    keys: { name: string; expiresAt: string | null; revokedAt: string | null }[];
  };
  const session = listed.keys.find((k) => k.name === 'dashboard sign-in: admin-1');
  t.truthy(session, 'in the keys list, named for the sign-in');
  t.truthy(session?.expiresAt, 'with an expiry');
  // The handoff is single-use: a second collection finds nothing.
  t.is((await fetch(`${app.dashboardUrl}/_enclave/admin/auth/handoff`, { method: 'POST' })).status, 404);
  await page.click('#sign-out');
  await page.waitForSelector('#login', { state: 'visible' });
  await t.notThrowsAsync(async () => {
    for (let i = 0; i < 50; i++) {
      if ((await fetch(`${app.url}/v1/sites`, { headers: { Authorization: `Bearer ${key}` } })).status === 401) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('the session key still works after sign-out');
  });
});

test('a provider account outside the admin group is refused clearly and gets no key', async (t) => {
  const { app, browser } = await dashboardWithProvider(t);
  const page = await browser.newPage();
  await page.goto(`${app.dashboardUrl}/_enclave/admin/auth/login`);
  const callback = page.waitForResponse((r) => r.url().includes('/_enclave/admin/auth/callback'));
  await signInAtProvider(page, 'reader-2');
  const answer = await callback;
  t.is(answer.status(), 403);
  t.regex((await page.textContent('body')) ?? '', /not in the group allowed to administer/);
  t.is((await fetch(`${app.dashboardUrl}/_enclave/admin/auth/handoff`, { method: 'POST' })).status, 404);
  const listed = (await (await app.api('/v1/keys')).json()) as { keys: { name: string }[] };
  t.false(
    listed.keys.some((k) => k.name.startsWith('dashboard sign-in')),
    'no key was minted',
  );
});

test('without dashboard.oidc the dashboard offers keys only and the sign-in routes are 404', async (t) => {
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  t.deepEqual(await (await fetch(`${app.dashboardUrl}/_enclave/admin/auth/options`)).json(), { oidc: false });
  t.is((await fetch(`${app.dashboardUrl}/_enclave/admin/auth/login`, { redirect: 'manual' })).status, 404);
  // Not on the docs listener either: the dashboard's paths live on its own origin only.
  t.is((await fetch(`${app.url}/_enclave/admin/auth/options`)).status, 404);
});
