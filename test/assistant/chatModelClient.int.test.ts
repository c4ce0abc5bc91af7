import test from 'ava';
import { createServer } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { streamChatCompletion } from '../../src/features/assistant/chat/streamChatCompletion.js';
import type { ChatModelEvent, ChatModelSettings } from '../../src/features/assistant/chat/ChatModelSettings.js';
import { ModelError } from '../../src/features/assistant/chat/ModelError.js';
import { startOpenAiStandIn, type OpenAiStandIn } from '../helpers/openAiStandIn.js';

// Generous limits for calls that should succeed (a loaded machine must not fail them); the
// timeout tests use short ones against stalls that never end on their own, so they cannot pass early.
const patient = { connectTimeoutMs: 60_000, firstTokenTimeoutMs: 60_000, idleTimeoutMs: 60_000, maxAnswerTokens: 256 };

function settings(standIn: OpenAiStandIn, extra: Partial<ChatModelSettings> = {}): ChatModelSettings {
  return { endpoint: standIn.url, model: 'tiny-llama', ...patient, ...extra };
}

async function collect(events: AsyncIterable<ChatModelEvent>): Promise<{ events: ChatModelEvent[]; error?: ModelError }> {
  const seen: ChatModelEvent[] = [];
  try {
    for await (const event of events) seen.push(event);
    return { events: seen };
  } catch (err) {
    if (!(err instanceof ModelError)) throw err;
    return { events: seen, error: err };
  }
}

const ask = [{ role: 'user' as const, content: 'How do I deploy?' }];

let standIn: OpenAiStandIn;
test.before(async () => {
  standIn = await startOpenAiStandIn();
});
test.after.always(async () => {
  await standIn.close();
});

test.serial('streams the pieces, then the finish with usage; sends the model, key and stream options', async (t) => {
  standIn.script({ deltas: ['Run ', '`enclave deploy`', '.'], usage: { prompt_tokens: 31, completion_tokens: 3 } });
  const { events, error } = await collect(streamChatCompletion(settings(standIn, { apiKey: 'sk-local' }), ask));
  t.is(error, undefined);
  t.deepEqual(events, [
    { type: 'text', text: 'Run ' },
    { type: 'text', text: '`enclave deploy`' },
    { type: 'text', text: '.' },
    { type: 'finish', reason: 'stop', usage: { promptTokens: 31, completionTokens: 3 } },
  ]);
  const sent = standIn.requests.at(-1)!;
  t.is(sent.path, '/v1/chat/completions');
  t.is(sent.headers.authorization, 'Bearer sk-local');
  t.like(sent.body, { model: 'tiny-llama', stream: true, stream_options: { include_usage: true }, max_tokens: 256 });
  t.deepEqual(sent.body.messages, ask);
});

test.serial('no key configured: no Authorization header; a length cut-off is reported as such', async (t) => {
  standIn.script({ deltas: ['partial'], finishReason: 'length' });
  const { events } = await collect(streamChatCompletion(settings(standIn), ask));
  t.is(standIn.requests.at(-1)!.headers.authorization, undefined);
  t.like(events.at(-1), { type: 'finish', reason: 'length' });
});

test.serial('an error body in OpenAI shape becomes an upstream error with the endpoint’s words kept for the log', async (t) => {
  standIn.script({ error: { status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' } });
  const { error } = await collect(streamChatCompletion(settings(standIn), ask));
  t.is(error?.failure, 'upstream');
  t.regex(error!.message, /refused the appliance’s API key/);
  t.regex(error!.detail ?? '', /401: Incorrect API key provided/);
  standIn.script({ error: { status: 500, message: 'CUDA out of memory' } });
  const second = await collect(streamChatCompletion(settings(standIn), ask));
  t.is(second.error?.failure, 'upstream');
  t.notRegex(second.error!.message, /CUDA/, 'the upstream text is not the reader-facing message');
});

test.serial('garbage in the stream, or no stream at all, is a garbage error, never an answer', async (t) => {
  standIn.script({ raw: 'data: {"choices":[{"delta":{"content":"ok"}}]}\n\ndata: <html>oops</html>\n\n' });
  const first = await collect(streamChatCompletion(settings(standIn), ask));
  t.is(first.error?.failure, 'garbage');
  t.deepEqual(first.events, [{ type: 'text', text: 'ok' }]);
  standIn.script({ raw: 'data: {"object":"something else"}\n\n' });
  t.is((await collect(streamChatCompletion(settings(standIn), ask))).error?.failure, 'garbage');
  standIn.script({ deltas: ['x'], asJson: true });
  const nonStream = await collect(streamChatCompletion(settings(standIn), ask));
  t.is(nonStream.error?.failure, 'garbage');
  t.regex(nonStream.error!.message, /did not answer with a stream/);
  standIn.script({ deltas: ['fine'] });
  const slashed = await collect(streamChatCompletion({ ...settings(standIn), endpoint: `${standIn.url}/` }, ask));
  t.is(slashed.error, undefined, 'a trailing slash on the endpoint is fine');
});

test.serial('an error event mid-stream and a stream cut without [DONE] end in upstream errors', async (t) => {
  standIn.script({ deltas: ['a', 'b'], errorEventAfter: 1 });
  const crashed = await collect(streamChatCompletion(settings(standIn), ask));
  t.is(crashed.error?.failure, 'upstream');
  t.regex(crashed.error!.detail ?? '', /model crashed/);
  t.deepEqual(crashed.events, [{ type: 'text', text: 'a' }]);
  standIn.script({ deltas: ['a', 'b', 'c'], disconnectAfter: 2 });
  const cut = await collect(streamChatCompletion(settings(standIn), ask));
  t.is(cut.events.length, 2);
  t.truthy(cut.error);
  t.true(cut.error!.failure === 'upstream' || cut.error!.failure === 'unreachable');
});

test.serial('headers that never come: a timeout, and the upstream request is closed', async (t) => {
  standIn.script({ stallBeforeHeaders: true, deltas: ['late'] });
  const { error } = await collect(streamChatCompletion(settings(standIn, { connectTimeoutMs: 150 }), ask));
  t.is(error?.failure, 'timeout');
  const record = standIn.requests.at(-1)!;
  await record.ended;
  t.true(record.aborted);
});

test.serial('no first token, or a stall after some: timeouts with what came kept', async (t) => {
  standIn.script({ stallAfter: 0, deltas: ['never'] });
  const silent = await collect(streamChatCompletion(settings(standIn, { firstTokenTimeoutMs: 150 }), ask));
  t.is(silent.error?.failure, 'timeout');
  t.regex(silent.error!.message, /did not start/);
  standIn.script({ stallAfter: 1, deltas: ['first', 'never'] });
  const stalled = await collect(streamChatCompletion(settings(standIn, { idleTimeoutMs: 150 }), ask));
  t.is(stalled.error?.failure, 'timeout');
  t.regex(stalled.error!.message, /stopped answering/);
  t.deepEqual(stalled.events, [{ type: 'text', text: 'first' }]);
  await standIn.requests.at(-1)!.ended;
  t.true(standIn.requests.at(-1)!.aborted);
});

test.serial('the reader leaving aborts the upstream request at once', async (t) => {
  standIn.script({ stallAfter: 1, deltas: ['first', 'never'] });
  const reader = new AbortController();
  const events = streamChatCompletion(settings(standIn), ask, reader.signal);
  const first = await events.next();
  t.deepEqual(first.value, { type: 'text', text: 'first' });
  const rest = collect(events);
  reader.abort();
  const { error } = await rest;
  t.is(error?.failure, 'aborted');
  const record = standIn.requests.at(-1)!;
  await record.ended;
  t.true(record.aborted);
});

test.serial('a consumer that stops iterating closes the upstream request too', async (t) => {
  standIn.script({ stallAfter: 1, deltas: ['first', 'never'] });
  for await (const event of streamChatCompletion(settings(standIn), ask)) {
    t.is(event.type, 'text');
    break;
  }
  const record = standIn.requests.at(-1)!;
  await record.ended;
  t.true(record.aborted);
});

test('an endpoint that is down is unreachable, not a hang', async (t) => {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const port = (probe.address() as AddressInfo).port;
  probe.close();
  await once(probe, 'close');
  const { error } = await collect(streamChatCompletion({ endpoint: `http://127.0.0.1:${port}`, model: 'm', ...patient }, ask));
  t.is(error?.failure, 'unreachable');
  t.regex(error!.detail ?? '', /ECONNREFUSED/);
});
