import test, { type ExecutionContext } from 'ava';
import { fetchWithHost } from '../helpers/fetchWithHost.js';
import { type OpenAiStandIn, startOpenAiStandIn } from '../helpers/openAiStandIn.js';
import type { TestAppliance } from '../helpers/testAppliance.js';
import { PASSWORD, postSignIn, sessionCookie, startReaderSite } from './readerSite.js';

/** Words only the fixture's public, signed-in and group pages hold. */
const QUESTION = 'kettles quokka zebrafish pangolin';
/** Text of the pages' bodies (not of the question): what an excerpt in the prompt would show. */
const PUBLIC_TEXT = 'open page about kettles';
const SIGNED_IN_TEXT = 'Internal quokka notes';
const GROUP_TEXTS = ['Restart the zebrafish', 'pangolin partner programme'];

async function panelSite(t: ExecutionContext): Promise<{ app: TestAppliance; standIn: OpenAiStandIn }> {
  const standIn = await startOpenAiStandIn();
  t.teardown(() => standIn.close());
  // Cites every excerpt it was given, so whatever retrieval let through shows in the sources.
  standIn.fallback = () => ({ deltas: ['See [1] [2] [3] [4] [5].'] });
  const overrides = { assistant: { enabled: true, endpoint: standIn.url, model: 'tiny', messagesPerAddressPerMinute: 1000 } };
  const { app } = await startReaderSite(t, undefined, undefined, undefined, overrides);
  return { app, standIn };
}

/** Asks the panel as the site's own page would (Host of the site, the reader's cookie); the raw stream and the prompt the model got. */
async function ask(app: TestAppliance, standIn: OpenAiStandIn, cookie?: string, extra: Record<string, unknown> = {}) {
  const res = await fetchWithHost('docs.example.com')(`${app.url}/_enclave/assistant/message`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ fp: 'reader', messages: [{ role: 'user', content: QUESTION }], currentPath: '/oncall/runbook', ...extra }),
  });
  const stream = await res.text();
  const prompt = (standIn.requests.at(-1)!.body.messages as { content: string }[]).map((m) => m.content).join('\n');
  return { status: res.status, stream, prompt };
}

test('the panel answers a reader not signed in from public pages only, whatever groups the body claims', async (t) => {
  const { app, standIn } = await panelSite(t);
  for (const extra of [{}, { filter: { groups: ['oncall', 'partners'] } }]) {
    const { status, stream, prompt } = await ask(app, standIn, undefined, extra);
    t.is(status, 200);
    t.true(prompt.includes(PUBLIC_TEXT), 'public pages are used');
    t.true(stream.includes('/open/hello'), 'and cited');
    for (const secret of [SIGNED_IN_TEXT, ...GROUP_TEXTS]) t.false(prompt.includes(secret), `prompt: ${secret}`);
    for (const path of ['/team/notes', '/oncall/runbook', '/partner/guide']) t.false(stream.includes(path), `cited: ${path}`);
  }
  // A cookie that does not verify is no one: the public again.
  const forged = await ask(app, standIn, 'enclave_reader=v1.forged.cookie');
  t.true(forged.prompt.includes(PUBLIC_TEXT));
  t.false(forged.prompt.includes(SIGNED_IN_TEXT));
});

test('the panel answers a signed-in reader from the pages their session opens, not group pages', async (t) => {
  const { app, standIn } = await panelSite(t);
  const cookie = sessionCookie(await postSignIn(app, PASSWORD));
  const { status, stream, prompt } = await ask(app, standIn, cookie, { filter: { groups: ['oncall'] } });
  t.is(status, 200);
  t.true(prompt.includes(PUBLIC_TEXT) && prompt.includes(SIGNED_IN_TEXT));
  t.true(stream.includes('/team/notes'));
  for (const secret of GROUP_TEXTS) t.false(prompt.includes(secret), secret);
  for (const path of ['/oncall/runbook', '/partner/guide']) t.false(stream.includes(path), path);
});
