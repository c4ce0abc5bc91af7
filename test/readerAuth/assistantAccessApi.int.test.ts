import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import anyTest, { type TestFn } from 'ava';
import { fetchWithHost } from '../helpers/fetchWithHost.js';
import { type OpenAiStandIn, startOpenAiStandIn } from '../helpers/openAiStandIn.js';
import type { TestAppliance } from '../helpers/testAppliance.js';
import { startReaderSite } from './readerSite.js';

type Context = { app: TestAppliance; key: string; standIn: OpenAiStandIn; cleanup: (() => Promise<void>)[] };
const test = anyTest as TestFn<Context>;
const DOMAIN = 'docs.example.com';

test.before(async (t) => {
  const standIn = await startOpenAiStandIn();
  standIn.fallback = () => ({ deltas: ['See [1] [2] [3].'] });
  const cleanup: (() => Promise<void>)[] = [() => standIn.close()];
  // The appliance and its export are shared by the file's tests: teardowns run after them all.
  const suite = { teardown: (fn: () => Promise<void>) => void cleanup.push(fn) } as unknown as Parameters<typeof startReaderSite>[0];
  const overrides = { assistant: { enabled: true, endpoint: standIn.url, model: 'tiny', messagesPerKeyPerMinute: 1000 } };
  const { app } = await startReaderSite(suite, undefined, undefined, undefined, overrides);
  const made = await app.api('/v1/keys', { method: 'POST', json: { name: 'widget', kind: 'assistant' } });
  const key = ((await made.json()) as { key: string }).key;
  t.context = { app, key, standIn, cleanup };
});
test.after.always(async (t) => {
  for (const fn of (t.context.cleanup ?? []).reverse()) await fn();
});

const post = (t: { context: Context }, path: string, json: unknown) =>
  t.context.app.api(path, { method: 'POST', json, key: t.context.key });

/** The page paths `/v1/search` finds for `query` with `groups` (undefined: none sent). */
async function searchPaths(t: { context: Context }, query: string, groups?: string[]): Promise<string[]> {
  const res = await post(t, `/v1/search/${DOMAIN}`, { query, ...(groups ? { filter: { groups } } : {}) });
  if (res.status !== 200) throw new Error(`search: ${res.status}`);
  return [...new Set(((await res.json()) as { path: string }[]).map((h) => h.path))].sort();
}

const EVERY_WORD = 'kettles quokka zebrafish pangolin';

test('search: no groups on a site with sign-in finds public pages only; groups open their pages and no others', async (t) => {
  t.deepEqual(await searchPaths(t, EVERY_WORD), ['open/hello']);
  t.deepEqual(await searchPaths(t, EVERY_WORD, []), ['open/hello', 'team/notes'], 'a signed-in reader without groups');
  t.deepEqual(await searchPaths(t, EVERY_WORD, ['partners']), ['open/hello', 'partner/guide', 'team/notes']);
  t.deepEqual(await searchPaths(t, EVERY_WORD, ['oncall']), ['oncall/runbook', 'open/hello', 'partner/guide', 'team/notes']);
  t.deepEqual(await searchPaths(t, EVERY_WORD, ['strangers']), ['open/hello', 'team/notes']);
});

test('page: a page the groups may not open is a 404 exactly like a missing page', async (t) => {
  const answer = async (path: string, groups?: string[]) => {
    const res = await post(t, `/v1/page/${DOMAIN}`, { path, ...(groups ? { groups } : {}) });
    return { status: res.status, body: (await res.text()).replaceAll(path, 'PATH') };
  };
  t.is((await answer('open/hello')).status, 200);
  const missing = await answer('oncall/nothing-here', ['partners']);
  t.is(missing.status, 404);
  t.deepEqual(await answer('oncall/runbook', ['partners']), missing);
  t.deepEqual(await answer('team/notes'), missing, 'no groups: the public only');
  t.deepEqual(await answer('team/notes.md'), missing);
  const runbook = await answer('oncall/runbook', ['oncall']);
  t.is(runbook.status, 200);
  t.true(runbook.body.includes('zebrafish'));
  t.true((await answer('team/notes', [])).body.includes('quokka'));
});

test('MCP tools honour groups as the API does', async (t) => {
  const transport = new StreamableHTTPClientTransport(new URL(`${t.context.app.url}/_enclave/mcp`), {
    fetch: fetchWithHost(DOMAIN),
    requestInit: { headers: { Authorization: `Bearer ${t.context.key}` } },
  });
  const client = new Client({ name: 'access-test', version: '1.0.0' });
  await client.connect(transport);
  t.teardown(() => client.close());
  type Text = { text: string }[];
  const found = async (args: Record<string, unknown>) =>
    ((await client.callTool({ name: 'search', arguments: { query: EVERY_WORD, ...args } })).content as Text).map((c) => c.text).join('\n');
  const open = await found({});
  t.true(open.includes('Path: /open/hello'));
  for (const hidden of ['/team/notes', '/oncall/runbook', '/partner/guide']) t.false(open.includes(hidden), hidden);
  const oncall = await found({ groups: ['oncall'] });
  t.true(oncall.includes('Path: /oncall/runbook') && oncall.includes('Path: /team/notes'));
  const page = (args: Record<string, unknown>) => client.callTool({ name: 'get_page', arguments: args });
  t.true((await page({ path: 'oncall/runbook' })).isError);
  t.true((await page({ path: 'oncall/runbook', groups: ['partners'] })).isError);
  const granted = await page({ path: 'oncall/runbook', groups: ['oncall'] });
  t.falsy(granted.isError);
  t.true((granted.content as Text)[0]!.text.includes('zebrafish'));
});

test('assistant messages (v1 and v2) retrieve and cite only what filter.groups opens', async (t) => {
  const ask = async (v: 1 | 2, groups?: string[]) => {
    const res = await post(t, `/v${v}/assistant/${DOMAIN}/message`, {
      fp: 'api',
      messages: [{ role: 'user', content: EVERY_WORD }],
      ...(groups ? { filter: { groups } } : {}),
    });
    const stream = await res.text();
    const prompt = (t.context.standIn.requests.at(-1)!.body.messages as { content: string }[]).map((m) => m.content).join('\n');
    return { status: res.status, stream, prompt };
  };
  for (const v of [1, 2] as const) {
    const open = await ask(v);
    t.is(open.status, 200);
    t.true(open.prompt.includes('open page about kettles'));
    for (const secret of ['Internal quokka notes', 'Restart the zebrafish', 'pangolin partner programme'])
      t.false(open.prompt.includes(secret), secret);
    for (const path of ['/team/notes', '/oncall/runbook', '/partner/guide']) t.false(open.stream.includes(path), path);
  }
  const partners = await ask(2, ['partners']);
  t.true(partners.prompt.includes('pangolin partner programme') && partners.prompt.includes('Internal quokka notes'));
  t.false(partners.prompt.includes('Restart the zebrafish'));
  t.false(partners.stream.includes('/oncall/runbook'));
});

test('on an open site, no groups finds every page but those limited to groups, as the hosted API', async (t) => {
  const { app } = await startReaderSite(t, { mode: 'none' });
  const made = await app.api('/v1/keys', { method: 'POST', json: { name: 'open widget', kind: 'assistant' } });
  const key = ((await made.json()) as { key: string }).key;
  const search = async (groups?: string[]) => {
    const res = await app.api(`/v1/search/${DOMAIN}`, {
      method: 'POST',
      key,
      json: { query: EVERY_WORD, ...(groups ? { filter: { groups } } : {}) },
    });
    return [...new Set(((await res.json()) as { path: string }[]).map((h) => h.path))].sort();
  };
  t.deepEqual(await search(), ['open/hello', 'team/notes']);
  t.deepEqual(await search(['partners']), ['open/hello', 'partner/guide', 'team/notes']);
  const page = await app.api(`/v1/page/${DOMAIN}`, { method: 'POST', key, json: { path: 'oncall/runbook' } });
  t.is(page.status, 404);
});
