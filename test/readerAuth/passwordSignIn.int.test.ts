import test from 'ava';
import type { ManualClock } from '../../src/platform/Clock.js';
import { PASSWORD, postSignIn, sessionCookie, startReaderSite } from './readerSite.js';

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { redirect: 'manual', headers });

test('a reader not signed in gets public pages without links to the others, and sign-in for the rest', async (t) => {
  const { app } = await startReaderSite(t);
  const open = await get(`${app.url}/open/hello`);
  t.is(open.status, 200);
  t.is(open.headers.get('cache-control'), 'private, no-cache');
  t.regex(open.headers.get('vary') ?? '', /Cookie/);
  const html = await open.text();
  t.true(html.includes('Release schedule'), 'links to public pages stay');
  for (const hidden of ['Team notes', 'Pager runbook', 'Partner guide']) t.false(html.includes(hidden), hidden);
  // A restricted page and a missing one are answered alike: sign-in, with the way back.
  const restricted = await get(`${app.url}/team/notes`);
  const missing = await get(`${app.url}/no/such/page`);
  t.is(restricted.status, 302);
  t.is(restricted.headers.get('location'), '/_enclave/auth/sign-in?returnTo=%2Fteam%2Fnotes');
  t.is(missing.status, 302);
  t.is(missing.headers.get('location'), '/_enclave/auth/sign-in?returnTo=%2Fno%2Fsuch%2Fpage');
  t.is((await get(`${app.url}/team/notes.md`)).status, 302);
  t.is((await get(`${app.url}/open/hello.md`)).status, 200);
  const llmsFull = await (await get(`${app.url}/llms-full.txt`)).text();
  t.true(llmsFull.includes('kettles'));
  t.false(llmsFull.includes('quokka'));
  const llms = await (await get(`${app.url}/llms.txt`)).text();
  t.false(llms.includes('team/notes'));
  const searchPath = /data-search-index="([^"]*search-index\.js)"/.exec(html)?.[1];
  t.truthy(searchPath);
  const index = await get(new URL(searchPath!, `${app.url}/open/hello`).href);
  t.is(index.headers.get('cache-control'), 'private, no-cache');
  const indexText = await index.text();
  t.true(indexText.includes('kettles'));
  for (const secret of ['quokka', 'zebrafish', 'Pager runbook']) t.false(indexText.includes(secret), secret);
  const page = await (await get(`${app.url}/_enclave/auth/sign-in?returnTo=%2Fteam%2Fnotes`)).text();
  t.true(page.includes('name="password"') && page.includes('value="/team/notes"'));
});

test('signing in sets a host-only HttpOnly SameSite=Lax cookie and returns the reader to the page they wanted', async (t) => {
  const { app } = await startReaderSite(t);
  t.is((await postSignIn(app, 'wrong password')).status, 401);
  const ok = await postSignIn(app, PASSWORD, '/team/notes');
  t.is(ok.status, 303);
  t.is(ok.headers.get('location'), '/team/notes');
  const setCookie = ok.headers.get('set-cookie') ?? '';
  t.regex(setCookie, /^enclave_reader=v1\.[^;]+; Path=\/; Max-Age=7200; HttpOnly; SameSite=Lax$/);
  t.false(/Domain=/i.test(setCookie), 'scoped to the host');
  const cookie = sessionCookie(ok);
  const notes = await get(`${app.url}/team/notes`, { cookie });
  t.is(notes.status, 200);
  t.true((await notes.text()).includes('quokka'));
  const openSignedIn = await (await get(`${app.url}/open/hello`, { cookie })).text();
  t.true(openSignedIn.includes('Team notes'), 'the sidebar lists what a signed-in reader may open');
  t.false(openSignedIn.includes('Pager runbook'), 'and not the group pages');
  const signedInIndex = await (await get(`${app.url}/llms-full.txt`, { cookie })).text();
  t.true(signedInIndex.includes('quokka'));
  t.false(signedInIndex.includes('zebrafish'), 'no group pages for a reader without groups');
});

test('a group page is a 404 to a reader without the group, exactly like a missing page, by URL, .md copy and If-None-Match', async (t) => {
  const { app } = await startReaderSite(t);
  const cookie = sessionCookie(await postSignIn(app, PASSWORD));
  const restricted = await get(`${app.url}/oncall/runbook`, { cookie });
  const missing = await get(`${app.url}/oncall/nothing-here`, { cookie });
  t.is(restricted.status, 404);
  t.is(missing.status, 404);
  t.deepEqual(headersOf(restricted), headersOf(missing));
  t.is(await restricted.text(), await missing.text());
  t.is((await get(`${app.url}/oncall/runbook.md`, { cookie })).status, 404);
  t.is((await get(`${app.url}/oncall/runbook`, { cookie, 'if-none-match': '*' })).status, 404);
  const etag = (await get(`${app.url}/team/notes`, { cookie })).headers.get('etag') ?? '';
  t.is((await get(`${app.url}/oncall/runbook`, { cookie, 'if-none-match': etag })).status, 404);
  t.is((await get(`${app.url}/team/notes`, { cookie, 'if-none-match': etag })).status, 304);
});

test('tampered, expired, signed-out and other-site cookies sign nobody in', async (t) => {
  const { app, clock: moved } = await startReaderSite(t);
  const clock = moved as ManualClock;
  const cookie = sessionCookie(await postSignIn(app, PASSWORD));
  const [name, value] = cookie.split('=');
  const parts = value.split('.');
  const claims = JSON.parse(Buffer.from(parts[2], 'base64url').toString());
  const forged = [parts[0], parts[1], Buffer.from(JSON.stringify({ ...claims, g: ['oncall'] })).toString('base64url'), parts[3]].join('.');
  t.is((await get(`${app.url}/team/notes`, { cookie: `${name}=${forged}` })).status, 302, 'groups added to the payload');
  const flipped = value.slice(0, -2) + (value.endsWith('AA') ? 'BB' : 'AA');
  t.is((await get(`${app.url}/team/notes`, { cookie: `${name}=${flipped}` })).status, 302, 'signature altered');
  t.is((await get(`${app.url}/team/notes`, { cookie })).status, 200);
  clock.advance(2 * 3_600_000 + 1000);
  t.is((await get(`${app.url}/team/notes`, { cookie })).status, 302, 'expired');
  clock.advance(-(2 * 3_600_000 + 1000));
  t.is((await get(`${app.url}/team/notes`, { cookie })).status, 200);
  const out = await fetch(`${app.url}/_enclave/auth/sign-out`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, Origin: app.url },
  });
  t.is(out.status, 303);
  t.regex(out.headers.get('set-cookie') ?? '', /Max-Age=0/);
  t.is((await get(`${app.url}/team/notes`, { cookie })).status, 302, 'replayed after sign-out');
});

test('sign-in refuses other origins, never redirects off-site, and limits attempts per address', async (t) => {
  const { app } = await startReaderSite(t);
  t.is((await postSignIn(app, PASSWORD, '/', 'https://evil.example')).status, 403);
  // Origin: null (a no-referrer page's post) passes only when the browser's Sec-Fetch-Site says same-origin.
  const post = (headers: Record<string, string>) =>
    fetch(`${app.url}/_enclave/auth/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ password: PASSWORD, returnTo: '/' }).toString(),
    });
  t.is((await post({ Origin: 'null' })).status, 403);
  t.is((await post({ Origin: 'null', 'Sec-Fetch-Site': 'cross-site' })).status, 403);
  t.is((await post({ Origin: app.url, 'Sec-Fetch-Site': 'same-site' })).status, 403);
  for (const target of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', '/_enclave/admin']) {
    const res = await postSignIn(app, PASSWORD, target);
    t.is(res.status, 303);
    t.is(res.headers.get('location'), '/', target);
  }
  // Ten attempts per window, whatever their outcome: four went to the redirect checks above
  // (refused origins never reach the limiter).
  for (let i = 0; i < 6; i++) t.is((await postSignIn(app, 'nope')).status, 401);
  const limited = await postSignIn(app, PASSWORD);
  t.is(limited.status, 429);
  t.truthy(limited.headers.get('retry-after'));
});

/** A response's headers, but for those that differ per response anyway. */
function headersOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (name !== 'date' && name !== 'x-request-id') out[name] = value;
  });
  return out;
}

test('/v1/sites sets reader sign-in live: the password is stored hashed, never shown, and takes effect at once', async (t) => {
  const { app } = await startReaderSite(t);
  const listed = await (await app.api('/v1/sites')).json();
  const site = listed.sites.find((s: { domain: string }) => s.domain === 'docs.example.com');
  t.deepEqual(site.auth, { mode: 'password', sessionHours: 2 });
  t.false(JSON.stringify(listed).includes('scrypt$'));
  const patched = await app.api('/v1/sites/docs.example.com', {
    method: 'PATCH',
    json: { auth: { mode: 'password', password: 'a new shared secret' } },
  });
  t.is(patched.status, 200, await patched.clone().text());
  t.false((await patched.text()).includes('a new shared secret'));
  t.is((await postSignIn(app, PASSWORD)).status, 401, 'the old password no longer works');
  t.is((await postSignIn(app, 'a new shared secret')).status, 303);
  const stored = app.control.sites.find('docs.example.com');
  t.regex(stored?.auth?.mode === 'password' ? stored.auth.passwordHash : '', /^scrypt\$/);
  t.is(
    (await app.api('/v1/sites/docs.example.com', { method: 'PATCH', json: { auth: { mode: 'password', password: 'short' } } })).status,
    400,
  );
  t.is((await app.api('/v1/sites/docs.example.com', { method: 'PATCH', json: { auth: { mode: 'none' } } })).status, 200);
  t.is((await get(`${app.url}/team/notes`)).status, 200, 'auth off: every page is open again');
});

test('feedback is taken only on pages the reader may open, refused on others exactly as on a missing page', async (t) => {
  const { app } = await startReaderSite(t);
  const post = (path: string, cookie?: string) =>
    fetch(`${app.url}/_enclave/feedback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ source: 'contextual', path, helpful: true }),
    });
  t.is((await post('/open/hello')).status, 201, 'a public page, not signed in');
  const hidden = await post('/team/notes');
  const missing = await post('/no/such/page');
  t.is(hidden.status, 400);
  t.deepEqual(await hidden.json(), await missing.json());
  const cookie = sessionCookie(await postSignIn(app, PASSWORD));
  t.is((await post('/team/notes', cookie)).status, 201);
  t.is((await post('/oncall/runbook', cookie)).status, 400, 'a group page, without the group');
});

test('a site without access marks: every page needs a signed-in reader, and what they get is private', async (t) => {
  const { app } = await startReaderSite(t, undefined, undefined, {
    'docs.json': JSON.stringify({ name: 'Plain', colors: { primary: '#0D9373' }, navigation: { pages: ['index', 'notes'] } }),
    'index.mdx': '# Home\n\nHello.\n',
    'notes.mdx': '# Notes\n\nPrivate walrus notes.\n',
  });
  t.is((await get(`${app.url}/notes`)).status, 302);
  t.is((await get(`${app.url}/`)).status, 302);
  t.is((await get(`${app.url}/llms-full.txt`)).status, 404);
  const cookie = sessionCookie(await postSignIn(app, PASSWORD));
  const notes = await get(`${app.url}/notes`, { cookie });
  t.is(notes.status, 200);
  t.is(notes.headers.get('cache-control'), 'private, no-cache');
  t.regex(notes.headers.get('vary') ?? '', /Cookie/);
  t.true((await (await get(`${app.url}/llms-full.txt`, { cookie })).text()).includes('walrus'));
});
