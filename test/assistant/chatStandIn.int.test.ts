import test from 'ava';
import { STAND_IN_DIMENSIONS, startOpenAiStandIn, standInEmbedding } from '../helpers/openAiStandIn.js';

// The stand-in is what every assistant test trusts to speak the OpenAI protocol: its wire format is checked here.

test('chat streams are SSE chunks, then a usage chunk when asked, then [DONE]', async (t) => {
  const standIn = await startOpenAiStandIn();
  t.teardown(() => standIn.close());
  standIn.script({ deltas: ['Hi'], usage: { prompt_tokens: 5, completion_tokens: 1 } });
  const response = await fetch(`${standIn.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [], stream: true, stream_options: { include_usage: true } }),
  });
  t.is(response.headers.get('content-type'), 'text/event-stream');
  const events = (await response.text()).split('\n\n').filter(Boolean);
  t.true(events.every((e) => e.startsWith('data: ')));
  t.is(events.at(-1), 'data: [DONE]');
  const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
  t.deepEqual(chunks[0].choices[0].delta, { role: 'assistant', content: '' });
  t.is(chunks[1].choices[0].delta.content, 'Hi');
  t.is(chunks[2].choices[0].finish_reason, 'stop');
  t.deepEqual(chunks[3], {
    id: 'chatcmpl-standin',
    object: 'chat.completion.chunk',
    created: chunks[3].created,
    model: 'm',
    system_fingerprint: null,
    choices: [],
    usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
  });
  t.is(chunks[0].usage, null, 'every chunk carries usage: null when usage is asked for');
});

test('errors come in OpenAI’s shape; embeddings are deterministic and can be switched off', async (t) => {
  const standIn = await startOpenAiStandIn();
  t.teardown(() => standIn.close());
  standIn.script({ error: { status: 429, message: 'Slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' } });
  const refused = await fetch(`${standIn.url}/v1/chat/completions`, { method: 'POST', body: '{"stream":true}' });
  t.is(refused.status, 429);
  t.deepEqual(await refused.json(), {
    error: { message: 'Slow down', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' },
  });
  const embed = async (input: unknown) =>
    fetch(`${standIn.url}/v1/embeddings`, { method: 'POST', body: JSON.stringify({ model: 'e', input }) });
  const body = (await (await embed(['deploy a site', 'deploy a site', 'rotate keys'])).json()) as {
    data: { index: number; embedding: number[] }[];
  };
  t.is(body.data.length, 3);
  t.is(body.data[0]!.embedding.length, STAND_IN_DIMENSIONS);
  t.deepEqual(body.data[0]!.embedding, body.data[1]!.embedding);
  t.deepEqual(body.data[2]!.embedding, standInEmbedding('rotate keys'));
  t.is((await embed(42)).status, 400);
  standIn.embeddingsOff = true;
  t.is((await embed('x')).status, 404);
});
