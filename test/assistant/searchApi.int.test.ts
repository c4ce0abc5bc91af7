import anyTest, { type TestFn } from 'ava';
import { createAdminKey } from '../../src/features/control/createAdminKey.js';
import { createProject } from '../../src/features/control/createProject.js';
import { systemClock } from '../../src/platform/Clock.js';
import { ASK_SITE } from './askSite.js';
import { ASK_DOMAIN, type AssistantHarness, startAssistantHarness } from './assistantHarness.js';

const test = anyTest as TestFn<AssistantHarness>;

test.before(async (t) => {
  t.context = await startAssistantHarness(ASK_SITE);
});
test.after.always(async (t) => {
  await t.context.close();
});

type Hit = { content: string; path: string; metadata: Record<string, unknown> };
const search = async (t: { context: AssistantHarness }, body: unknown) => {
  const res = await t.context.post(`/v1/search/${ASK_DOMAIN}`, body);
  return { status: res.status, body: (await res.json()) as Hit[] };
};

test('search answers the matching section, best first, in the hosted shape with its anchor and scope', async (t) => {
  const { status, body } = await search(t, { query: 'how long is the quokkadelay after a refusal?' });
  t.is(status, 200);
  t.true(body.length >= 1);
  t.like(body[0], {
    path: 'guides/limits',
    metadata: {
      title: 'Request budgets',
      section: 'Waiting after a refusal',
      anchor: 'waiting-after-a-refusal',
      version: 'v2',
      language: null,
    },
  });
  t.regex(body[0].content, /quokkadelay/);
  t.true(typeof body[0].metadata.score === 'number' && body[0].metadata.score > 0 && body[0].metadata.score <= 1);
});

test('the default version is searched unless the filter names another; pageSize caps the hits', async (t) => {
  const v2 = await search(t, { query: 'zanzibar counter' });
  t.deepEqual([...new Set(v2.body.map((h) => h.metadata.version))], ['v2']);
  t.regex(v2.body[0].content, /600 calls/);
  const v1 = await search(t, { query: 'zanzibar counter', filter: { version: 'v1' } });
  t.is(v1.body[0].path, 'v1/guides/limits');
  t.regex(v1.body[0].content, /60 calls/);
  const one = await search(t, { query: 'budget calls key', pageSize: 1 });
  t.is(one.body.length, 1);
  const tagged = await search(t, { query: 'axolotlmode', filter: { tag: 'NEW' } });
  t.is(tagged.body[0]?.path, 'guides/tagged');
  t.deepEqual((await search(t, { query: 'axolotlmode', filter: { tag: 'OLD' } })).body, []);
  const strict = await search(t, { query: 'zanzibar', scoreThreshold: 1 });
  t.deepEqual(strict.body, [], 'no section reaches the best possible score');
});

test('agent-only text is searchable; reader-only text and unlisted pages are not', async (t) => {
  const agents = await search(t, { query: 'marmosetsecret' });
  t.is(agents.body[0]?.path, 'guides/hooks');
  t.deepEqual((await search(t, { query: 'pangolinbutton' })).body, []);
  t.deepEqual((await search(t, { query: 'wallabyword' })).body, []);
});

test('page answers the Markdown copy for the forms of a path a caller may send, 404 with a message otherwise', async (t) => {
  for (const path of ['guides/hooks', '/guides/hooks', 'guides/hooks.md', '/guides/hooks/']) {
    const res = await t.context.post(`/v1/page/${ASK_DOMAIN}`, { path });
    t.is(res.status, 200, path);
    const page = (await res.json()) as { path: string; content: string };
    t.is(page.path, 'guides/hooks');
    t.regex(page.content, /^# Webhooks/);
    t.regex(page.content, /marmosetsecret/);
  }
  for (const path of ['guides/nope', 'unlisted', '../control', 'guides/../../x']) {
    const res = await t.context.post(`/v1/page/${ASK_DOMAIN}`, { path });
    t.is(res.status, 404, path);
    const body = (await res.json()) as { message: string; error: string };
    t.regex(body.message, /No page/);
    t.is(body.error, body.message);
  }
});

test('every bad input is named in one 400; an unknown domain is a 404', async (t) => {
  const bad = await t.context.post(`/v1/search/${ASK_DOMAIN}`, { pageSize: 51, filter: { version: 3, colour: 'red' }, extra: 1 });
  t.is(bad.status, 400);
  const body = (await bad.json()) as { error: string; details: { message: string }[] };
  const text = body.details.map((d) => d.message).join('\n');
  for (const name of ['query', 'pageSize', 'filter.version', 'colour', 'extra']) t.true(text.includes(name), `${name} in ${text}`);
  const page = await t.context.post(`/v1/page/${ASK_DOMAIN}`, {});
  t.is(page.status, 400);
  t.regex(JSON.stringify(await page.json()), /path/);
  const unknown = await t.context.post('/v1/search/nowhere.example.com', { query: 'x' });
  t.is(unknown.status, 404);
  t.regex(((await unknown.json()) as { error: string }).error, /nowhere\.example\.com/);
});

test('keys: none, admin, other project and revoked keys are refused; an assistant key is refused on admin routes', async (t) => {
  const h = t.context;
  const none = await h.post(`/v1/search/${ASK_DOMAIN}`, { query: 'budget' }, null);
  t.is(none.status, 401);
  t.is(none.headers.get('www-authenticate'), 'Bearer');
  t.is((await h.post(`/v1/search/${ASK_DOMAIN}`, { query: 'budget' }, h.app.key)).status, 401, 'admin keys are not for pages');

  const other = await createProject(h.app.control, systemClock, 'other');
  const foreign = await createAdminKey(h.app.control, systemClock, { projectId: other.id, name: 'x', scope: 'read', kind: 'assistant' });
  t.regex(foreign.key, /^enc_asst_[0-9A-Za-z]{46}$/);
  t.is((await h.post(`/v1/search/${ASK_DOMAIN}`, { query: 'budget' }, foreign.key)).status, 403);

  const admin = await h.app.api('/v1/keys', { key: h.assistantKey });
  t.is(admin.status, 403, 'an assistant key opens no admin route');
  t.regex(((await admin.json()) as { error: string }).error, /assistant key/);

  const made = await h.app.api('/v1/keys', { method: 'POST', json: { name: 'short-lived', kind: 'assistant' } });
  const { key, id, kind, scope } = (await made.json()) as { key: string; id: string; kind: string; scope: string };
  t.deepEqual([kind, scope], ['assistant', 'read']);
  t.is((await h.post(`/v1/search/${ASK_DOMAIN}`, { query: 'budget' }, key)).status, 200);
  const listed = (await (await h.app.api('/v1/keys')).json()) as { keys: { id: string; kind: string }[] };
  t.is(listed.keys.find((k) => k.id === id)?.kind, 'assistant');
  t.is((await h.app.api(`/v1/keys/${id}`, { method: 'DELETE' })).status, 200);
  t.is((await h.post(`/v1/search/${ASK_DOMAIN}`, { query: 'budget' }, key)).status, 401, 'revoked: refused at once');
});

test('search and page are in /openapi.json with the assistant key scheme', async (t) => {
  const doc = (await (await t.context.app.api('/openapi.json')).json()) as {
    paths: Record<string, Record<string, { security: unknown[] }>>;
    components: { securitySchemes: Record<string, unknown> };
  };
  t.deepEqual(doc.paths['/v1/search/{domain}'].post.security, [{ assistantKey: [] }]);
  t.truthy(doc.paths['/v1/page/{domain}'].post);
  t.truthy(doc.components.securitySchemes.assistantKey);
});
