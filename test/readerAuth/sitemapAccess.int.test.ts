import test from 'ava';
import { READER_ACCESS_SITE } from './readerAccessSite.js';
import { PASSWORD, postSignIn, sessionCookie, startReaderSite } from './readerSite.js';

const get = (url: string, cookie?: string) => fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });

test('sitemap.xml names only the pages the reader may open, privately', async (t) => {
  const { app } = await startReaderSite(t, undefined, undefined, READER_ACCESS_SITE);
  const anonymous = await get(`${app.url}/sitemap.xml`);
  t.is(anonymous.status, 200);
  t.is(anonymous.headers.get('cache-control'), 'private, no-cache');
  t.regex(anonymous.headers.get('vary') ?? '', /Cookie/);
  const publicMap = await anonymous.text();
  t.regex(publicMap, /<urlset[^>]*>/, 'still a sitemap');
  t.true(publicMap.includes('/open/hello</loc>'), 'public pages stay listed');
  for (const hidden of ['team/notes', 'oncall/runbook']) t.false(publicMap.includes(hidden), `${hidden} is not named to the public`);

  const cookie = sessionCookie(await postSignIn(app, PASSWORD));
  const signedIn = await (await get(`${app.url}/sitemap.xml`, cookie)).text();
  t.true(signedIn.includes('/team/notes</loc>'), 'a signed-in reader sees signed-in pages');
  t.false(signedIn.includes('oncall/runbook'), 'but no page of a group they are not in');
});
