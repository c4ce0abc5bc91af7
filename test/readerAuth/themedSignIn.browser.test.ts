import test from 'ava';
import { launchBrowser } from '../helpers/browser.js';
import { READER_ACCESS_SITE } from './readerAccessSite.js';
import { PASSWORD, startReaderSite } from './readerSite.js';

// An appliance per test (sign-in is served by it, not by a static render), so no browserSuite.

const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32" viewBox="0 0 120 32"><rect width="120" height="32" fill="#c2185b"/></svg>';

/** The access fixture with a name, logo, favicon and primary colour of its own. */
const THEMED_SITE: Record<string, string> = {
  ...READER_ACCESS_SITE,
  'docs.json': JSON.stringify({
    ...JSON.parse(READER_ACCESS_SITE['docs.json']),
    name: 'Quartz Handbook',
    logo: '/brand/logo.svg',
    favicon: '/brand/logo.svg',
    colors: { primary: '#C2185B' },
  }),
  'brand/logo.svg': LOGO,
};

test("the sign-in page and its error answers wear the site's theme: name, logo, favicon, primary colour, light and dark", async (t) => {
  const { app } = await startReaderSite(t, undefined, undefined, THEMED_SITE);
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const light = await (await browser.newContext({ colorScheme: 'light' })).newPage();
  await light.goto(`${app.url}/team/notes`);
  t.true(light.url().includes('/_enclave/auth/sign-in?returnTo=%2Fteam%2Fnotes'));
  t.is(await light.title(), 'Sign in · Quartz Handbook');
  t.is(await light.textContent('h1'), 'Sign in to Quartz Handbook');
  t.true(await light.$eval('.enclave-logo img', (img) => (img as HTMLImageElement).naturalWidth > 0), 'the logo loads');
  t.is(await light.$eval('link[rel="icon"]', (l) => l.getAttribute('href')), '/brand/logo.svg');
  // The colour comes from docs.json through the export's own site stylesheet, not a copy of it.
  t.is(await light.$eval('button[type="submit"]', (b) => getComputedStyle(b).backgroundColor), 'rgb(194, 24, 91)');
  t.is(await light.$eval('html', (h) => h.getAttribute('data-theme')), 'light');
  t.is(await light.$eval('body', (b) => getComputedStyle(b).backgroundColor), 'rgb(255, 255, 255)');
  t.regex(await light.$eval('body', (b) => getComputedStyle(b).fontFamily), /Inter/);

  // A wrong password answers the same themed page with its message.
  await light.fill('input[name="password"]', 'not the password');
  const [answer] = await Promise.all([light.waitForResponse((r) => r.request().method() === 'POST'), light.click('button[type="submit"]')]);
  t.is(answer.status(), 401);
  t.is(await light.textContent('.message'), 'That password is not right.');
  t.is(await light.textContent('h1'), 'Sign in to Quartz Handbook');
  // The right one signs in from the real form (its post carries Origin: null under no-referrer; Sec-Fetch-Site vouches).
  await light.fill('input[name="password"]', PASSWORD);
  await light.click('button[type="submit"]');
  await light.waitForURL(`${app.url}/team/notes`);
  t.true((await light.content()).includes('quokka'));

  const dark = await (await browser.newContext({ colorScheme: 'dark' })).newPage();
  await dark.goto(`${app.url}/_enclave/auth/sign-in`);
  t.is(await dark.$eval('html', (h) => h.getAttribute('data-theme')), 'dark');
  t.is(await dark.$eval('body', (b) => getComputedStyle(b).backgroundColor), 'rgb(14, 17, 22)');
  t.not(
    await dark.$eval('button[type="submit"]', (b) => getComputedStyle(b).backgroundColor),
    'rgb(194, 24, 91)',
    'the dark scheme lightens the primary for contrast',
  );
});
