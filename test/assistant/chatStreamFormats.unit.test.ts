import test, { type ExecutionContext } from 'ava';
import type { AnswerStreamFormat } from '../../src/features/assistant/chat/stream/AnswerStreamFormat.js';
import { dataStreamV4 } from '../../src/features/assistant/chat/stream/dataStreamV4.js';
import { uiMessageStreamV5 } from '../../src/features/assistant/chat/stream/uiMessageStreamV5.js';
import { readWithAiV4, readWithAiV5, type SdkReading } from '../helpers/aiSdkReaders.js';

// The byte formats are checked by the AI SDK's own readers (ai@4's callChatApi, ai@5's
// transport + readUIMessageStream), fed through a fetch that answers with what the format wrote.

type Step = (format: AnswerStreamFormat) => string;

function fetchAnswering(makeFormat: () => AnswerStreamFormat, steps: Step[], split = false): typeof fetch {
  return (async () => {
    const format = makeFormat();
    const encoder = new TextEncoder();
    const chunks = steps.map((step) => encoder.encode(step(format)));
    // Every chunk split in two bytes-wise (inside multi-byte characters too): readers must buffer partial lines.
    const pieces = split ? chunks.flatMap((c) => [c.subarray(0, Math.ceil(c.length / 2)), c.subarray(Math.ceil(c.length / 2))]) : chunks;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of pieces) controller.enqueue(piece);
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: format.headers });
  }) as typeof fetch;
}

const answer: Step[] = [
  (f) => f.start({ threadId: '01JD000000000000000000TEST', messageId: 'msg-1' }),
  (f) => f.text('Run `enclave deploy` '),
  (f) => f.text('with the bundle URL [1]. Ünïcödé ✓ "quotes"\nnew line'),
  (f) => f.sources([{ id: 's1', url: '/guides/deploy#from-a-url', title: 'Deploy › From a URL' }]),
  (f) => f.finish({ reason: 'stop', usage: { promptTokens: 100, completionTokens: 12 } }),
];
const failing: Step[] = [
  (f) => f.start({ threadId: '01JD000000000000000000TEST', messageId: 'msg-1' }),
  (f) => f.text('Partial'),
  (f) => f.error('The model endpoint could not be reached'),
];

const expectedText = 'Run `enclave deploy` with the bundle URL [1]. Ünïcödé ✓ "quotes"\nnew line';

function checkAnswer(t: ExecutionContext, reading: SdkReading) {
  t.like(reading, { text: expectedText, threadId: '01JD000000000000000000TEST', error: undefined });
  t.deepEqual(
    reading.sources.map((s) => ({ id: s.id, url: s.url, title: s.title })),
    [{ id: 's1', url: '/guides/deploy#from-a-url', title: 'Deploy › From a URL' }],
  );
}

for (const split of [false, true]) {
  const how = split ? ', in split chunks' : '';
  test(`ai@4 reads the v4 data stream: text, sources, thread id, finish${how}`, async (t) => {
    const reading = await readWithAiV4('http://enclave.test/v1/assistant/docs/message', {
      question: 'How?',
      fetch: fetchAnswering(dataStreamV4, answer, split),
    });
    checkAnswer(t, reading);
    t.is(reading.finishReason, 'stop');
  });

  test(`ai@5 reads the v5 UI message stream: text, sources, thread id${how}`, async (t) => {
    const reading = await readWithAiV5('http://enclave.test/v2/assistant/docs/message', {
      question: 'How?',
      fetch: fetchAnswering(uiMessageStreamV5, answer, split),
    });
    checkAnswer(t, reading);
  });
}

test('both readers surface the error event with its message', async (t) => {
  const v4 = await readWithAiV4('http://enclave.test/v1/x', { question: 'q', fetch: fetchAnswering(dataStreamV4, failing) });
  t.is(v4.error, 'The model endpoint could not be reached');
  t.is(v4.text, 'Partial');
  const v5 = await readWithAiV5('http://enclave.test/v2/x', { question: 'q', fetch: fetchAnswering(uiMessageStreamV5, failing) });
  t.is(v5.error, 'The model endpoint could not be reached');
  t.is(v5.text, 'Partial');
});

test('the v4 stream is line-delimited parts; the v5 stream is SSE ending in [DONE]', (t) => {
  const four = dataStreamV4();
  t.is(four.text('a"b'), '0:"a\\"b"\n');
  t.is(four.error('bad'), '3:"bad"\n');
  const five = uiMessageStreamV5();
  const finished = five.text('x') + five.finish({ reason: 'stop' });
  t.true(finished.endsWith('data: {"type":"finish"}\n\ndata: [DONE]\n\n'));
  t.regex(finished, /"type":"text-end","id":"text-1"/);
});
