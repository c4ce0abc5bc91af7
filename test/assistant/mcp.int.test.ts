import anyTest, { type TestFn } from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fetchWithHost } from '../helpers/fetchWithHost.js';
import { ASK_SITE } from './askSite.js';
import { ASK_DOMAIN, type AssistantHarness, startAssistantHarness } from './assistantHarness.js';

const test = anyTest as TestFn<AssistantHarness>;

test.before(async (t) => {
  t.context = await startAssistantHarness(ASK_SITE);
});
test.after.always(async (t) => {
  await t.context.close();
});

/** An MCP client of the SDK, connected to the appliance's MCP endpoint as `host` with `key`. */
async function connect(h: AssistantHarness, key: string | null, host = ASK_DOMAIN): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${h.app.url}/_enclave/mcp`), {
    fetch: fetchWithHost(host),
    requestInit: key ? { headers: { Authorization: `Bearer ${key}` } } : {},
  });
  const client = new Client({ name: 'enclave-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

type Text = { type: string; text: string }[];

test('the SDK client lists search and get_page and calls them over the same index as the search API', async (t) => {
  const client = await connect(t.context, t.context.assistantKey);
  t.teardown(() => client.close());
  const { tools } = await client.listTools();
  t.deepEqual(tools.map((tool) => tool.name).sort(), ['get_page', 'search']);

  const found = await client.callTool({ name: 'search', arguments: { query: 'quokkadelay refusal' } });
  const first = (found.content as Text)[0].text;
  t.regex(first, /^Request budgets › Waiting after a refusal\nPath: \/guides\/limits#waiting-after-a-refusal \(version v2\)/);
  t.regex(first, /quokkadelay/);
  const older = await client.callTool({ name: 'search', arguments: { query: 'zanzibar', version: 'v1' } });
  t.regex((older.content as Text)[0].text, /Path: \/v1\/guides\/limits/);
  const none = await client.callTool({ name: 'search', arguments: { query: 'pangolinbutton' } });
  t.regex((none.content as Text)[0].text, /No section/);

  const page = await client.callTool({ name: 'get_page', arguments: { path: 'guides/hooks' } });
  t.falsy(page.isError);
  t.regex((page.content as Text)[0].text, /^# Webhooks[\s\S]*marmosetsecret/);
  const missing = await client.callTool({ name: 'get_page', arguments: { path: 'guides/nope' } });
  t.true(missing.isError);
});

test('MCP refuses a missing key, an admin key and a Host no site serves', async (t) => {
  const h = t.context;
  const refused = async (key: string | null, host?: string) => {
    const err = await t.throwsAsync(() => connect(h, key, host));
    return `${(err as Error & { code?: number }).code} ${err?.message}`;
  };
  t.regex(await refused(null), /^401 .*assistant key/);
  t.regex(await refused(h.app.key), /^401 /);
  t.regex(await refused(h.assistantKey, 'elsewhere.example.com'), /^404 .*elsewhere/);
  const get = await fetchWithHost(ASK_DOMAIN)(`${h.app.url}/_enclave/mcp`, { headers: { Authorization: `Bearer ${h.assistantKey}` } });
  t.is(get.status, 405, 'no standing stream on a stateless server');
});

test('an MCP body over the public cap is refused with 413 in the error shape, for a site the Host names', async (t) => {
  const h = t.context;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'search', arguments: { query: 'x'.repeat(h.app.config.limits.feedbackBodyBytes) } },
  });
  const res = await fetchWithHost(ASK_DOMAIN)(`${h.app.url}/_enclave/mcp`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${h.assistantKey}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    },
    body,
  });
  t.is(res.status, 413);
  t.is(typeof ((await res.json()) as { error: unknown }).error, 'string');
});
