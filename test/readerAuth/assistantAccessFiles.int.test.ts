import test from 'ava';
import { READER_ACCESS_SITE } from './readerAccessSite.js';
import { PASSWORD, postSignIn, sessionCookie, startReaderSite } from './readerSite.js';

/** The access fixture with agent-only text on a public, a signed-in and a group page. */
const SITE: Record<string, string> = {
  ...READER_ACCESS_SITE,
  'open/hello.mdx': `${READER_ACCESS_SITE['open/hello.mdx']}\n<Visibility for="agents">\nAgents descale the kettleagent.\n</Visibility>\n`,
  'team/notes.mdx': `${READER_ACCESS_SITE['team/notes.mdx']}\n<Visibility for="agents">\nAgents feed the quokkaagent.\n</Visibility>\n`,
  'oncall/runbook.mdx': `${READER_ACCESS_SITE['oncall/runbook.mdx']}\n<Visibility for="agents">\nAgents page the zebrafishagent.\n</Visibility>\n`,
};

const get = (url: string, cookie?: string) => fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });

test('the raw section chunks are never served, and the agent channel holds only the pages the reader may open', async (t) => {
  const { app } = await startReaderSite(t, undefined, undefined, SITE);
  const cookie = sessionCookie(await postSignIn(app, PASSWORD));
  // Only the server reads the chunk file (it carries every page's text): 404 to everyone.
  for (const who of [undefined, cookie]) {
    const chunks = await get(`${app.url}/_enclave/sections.jsonl`, who);
    t.is(chunks.status, 404);
    t.false((await chunks.text()).includes('quokka'));
    t.is((await get(`${app.url}/_enclave/access.json`, who)).status, 404);
  }

  const publicChannel = await get(`${app.url}/search-agents.json`);
  t.is(publicChannel.status, 200);
  t.is(publicChannel.headers.get('cache-control'), 'private, no-cache');
  t.regex(publicChannel.headers.get('vary') ?? '', /Cookie/);
  const publicText = await publicChannel.text();
  t.true(publicText.includes('kettleagent'), 'public pages stay');
  for (const secret of ['quokkaagent', 'zebrafishagent', 'team/notes', 'oncall/runbook']) t.false(publicText.includes(secret), secret);
  t.is((JSON.parse(publicText) as { channel: string }).channel, 'agents');

  const signedIn = await (await get(`${app.url}/search-agents.json`, cookie)).text();
  t.true(signedIn.includes('kettleagent') && signedIn.includes('quokkaagent'));
  t.false(signedIn.includes('zebrafishagent'), 'no group pages for a reader without the group');
});

test('on a site whose bundle marks no page, the agent channel needs a signed-in reader', async (t) => {
  const files: Record<string, string> = { ...SITE, 'docs.json': SITE['docs.json']!.replace('"public":true,', '') };
  for (const name of ['api-ref.mdx']) files[name] = files[name]!.replace('public: true\n', '');
  for (const name of ['oncall/runbook.mdx', 'partner/guide.mdx']) files[name] = files[name]!.replace(/groups: .*\n/, '');
  const { app } = await startReaderSite(t, undefined, undefined, files);
  t.is((await get(`${app.url}/open/hello`)).status, 302, 'no page is public: the bundle has no access map');
  t.is((await get(`${app.url}/search-agents.json`)).status, 404);
  const cookie = sessionCookie(await postSignIn(app, PASSWORD));
  const signedIn = await get(`${app.url}/search-agents.json`, cookie);
  t.is(signedIn.status, 200);
  t.is(signedIn.headers.get('cache-control'), 'private, no-cache');
  t.true((await signedIn.text()).includes('zebrafishagent'));
});
