import test from 'ava';
import { CodeTokenizerThread, waitVerdict } from '../../src/render/code/CodeTokenizerThread.js';
import { createCodeHighlighter } from '../../src/render/code/createCodeHighlighter.js';
import type { FencedBlock } from '../../src/render/code/scanFencedBlocks.js';
import { createReportCollector } from '../../src/render/report/createReportCollector.js';

const LANGUAGES = ['ts', 'python', 'bash', 'json'];
/**
 * Waits far longer than any load makes a thread's setup or a block: which thread tokenizes must
 * not depend on the machine. A test that checks "no wait" asserts under LOAD_MARGIN_MS, well
 * below these, so a wait that did happen still fails it.
 */
const LIMITS = { setupWaitMs: 60_000, stallMs: 60_000 };
const LOAD_MARGIN_MS = 20_000;

/** Blocks of the kinds pages hold: several grammars, notation marks, a repeat, plain text. */
const BLOCKS: FencedBlock[] = [
  { lang: 'ts', value: 'export const a: number = 1;\nconst b = a + 1; // [!code highlight]\n' },
  { lang: 'python', value: 'def f(x):\n    return x * 2  # twice\n' },
  { lang: 'bash', value: 'npm install --save widget && echo "done $HOME"' },
  { lang: 'json', value: '{ "a": [1, 2], "b": null }' },
  { lang: 'ts', value: 'export const a: number = 1;\nconst b = a + 1; // [!code highlight]\n' },
  { lang: 'no-such-language', value: 'kept as plain text' },
  { lang: null, value: 'no language at all' },
];
/** Distinct blocks that get tokenized (not the repeat or plain text). */
const TOKENIZED = 4;

const ctx = () => ({ report: createReportCollector(), pagePath: 'p' }) as never;
const render = (highlighter: Awaited<ReturnType<typeof createCodeHighlighter>>) =>
  BLOCKS.map((block) => highlighter.highlight({ lang: block.lang, meta: null, value: block.value }, ctx()));

/**
 * What the same blocks render to with no thread involved, from grammars compiled beforehand:
 * shiki cuts a line short after 500 ms, and a grammar's first line (compiling it) can take that
 * long on a loaded machine.
 */
const alone = (async () => {
  render(await createCodeHighlighter({ languages: LANGUAGES }));
  return render(await createCodeHighlighter({ languages: LANGUAGES }));
})();

async function withThread(t: { teardown(fn: () => Promise<void>): void }) {
  await alone;
  const thread = new CodeTokenizerThread(LIMITS);
  t.teardown(() => thread.close());
  // As in an export worker, where it starts and warms up while the worker waits for its job.
  await thread.warmUp(LANGUAGES);
  return { thread, highlighter: await createCodeHighlighter({ languages: LANGUAGES }) };
}

test('blocks handed to the thread ahead render exactly as without it, and none is tokenized on the main thread', async (t) => {
  const { thread, highlighter } = await withThread(t);
  highlighter.tokenizeAhead(BLOCKS, thread);
  t.deepEqual(render(highlighter), await alone);
  t.is(highlighter.stats().misses, 0, 'every block came from the thread');
  t.is(highlighter.stats().hits, TOKENIZED + 1, 'each tokenized block, and the repeat, read from the cache');
});

test('a block the thread was not handed ahead (a snippet, an API example) is asked for at once and the page waits for it', async (t) => {
  const { thread, highlighter } = await withThread(t);
  highlighter.tokenizeAhead([], thread);
  t.deepEqual(render(highlighter), await alone);
  t.is(highlighter.stats().misses, 0, 'the thread tokenized them on request');
});

test('a thread that is gone leaves the tokenizing to the main thread, with the same output', async (t) => {
  const { thread, highlighter } = await withThread(t);
  highlighter.tokenizeAhead(BLOCKS.slice(0, 2), thread);
  await thread.close();
  t.deepEqual(render(highlighter), await alone);
  t.true(highlighter.stats().misses >= TOKENIZED - 2, `${highlighter.stats().misses} blocks tokenized on the main thread`);
});

test('a thread that died mid-job (its heap cap, a crash) is noticed: pages neither hang nor differ', async (t) => {
  const { thread, highlighter } = await withThread(t);
  highlighter.tokenizeAhead([], thread);
  // Terminating from outside, without `close`, is how a crash looks to the render.
  await (thread as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
  await new Promise((resolve) => setImmediate(resolve));
  const started = performance.now();
  t.deepEqual(render(highlighter), await alone);
  t.true(performance.now() - started < LOAD_MARGIN_MS, 'no wait for a thread that is gone');
  t.is(highlighter.stats().misses, TOKENIZED);
});

test('pages do not wait for a thread that is still starting: they tokenize themselves meanwhile', async (t) => {
  const expected = await alone;
  const highlighter = await createCodeHighlighter({ languages: LANGUAGES });
  // No turn of the event loop from here on: the thread can't have said it is ready.
  const thread = new CodeTokenizerThread(LIMITS);
  t.teardown(() => thread.close());
  highlighter.tokenizeAhead([], thread);
  t.deepEqual(render(highlighter), expected);
  t.is(highlighter.stats().misses, TOKENIZED, 'all tokenized on the main thread, none waited for');
});

test('a block the thread refuses (a grammar it could not load) is not waited for again: the page tokenizes it itself', async (t) => {
  const { thread } = await withThread(t);
  const tokens = new Map<string, string>();
  // The render only ever asks for grammars it has loaded; this one is unknown to the thread too.
  const refused = { key: 'k-refused', id: 'no-such-grammar', code: 'x = 1' };
  thread.tokenize([refused], (key, json) => tokens.set(key, json));
  const started = performance.now();
  thread.tokenizeNow(refused, () => tokens.has(refused.key));
  t.false(tokens.has(refused.key), 'no tokens for it');
  t.true(performance.now() - started < LOAD_MARGIN_MS, 'answered at once, not after a wait');
  // Other blocks are still served.
  const fine = { key: 'k-fine', id: 'typescript', code: 'const a = 1;' };
  thread.tokenizeNow(fine, () => tokens.has(fine.key));
  t.true(tokens.has(fine.key));
  t.is(thread.delivered, 1);
});

test('how long a page waits for the thread: a while for one still loading its grammars, long only for one that is working', (t) => {
  // Serving and beating: keep waiting.
  t.is(waitVerdict({ serving: true, sinceAsked: 30_000, sinceBeat: 50 }), 'wait');
  // Serving but silent for 5 s: stuck or dead, so no page asks it again.
  t.is(waitVerdict({ serving: true, sinceAsked: 6_000, sinceBeat: 5_001 }), 'give up');
  // Still loading grammars for the job: a second, then this page tokenizes its block itself.
  t.is(waitVerdict({ serving: false, sinceAsked: 900, sinceBeat: 900 }), 'wait');
  t.is(waitVerdict({ serving: false, sinceAsked: 1_001, sinceBeat: 1_001 }), 'tokenize here');
});

test('a warm-up in the thread compiles and practises the grammars it is given, as on the main thread', async (t) => {
  const thread = new CodeTokenizerThread(LIMITS);
  t.teardown(() => thread.close());
  const warmed = await thread.warmUp(['python', 'rust']);
  t.like(warmed, { loaded: ['python', 'rust'], compiled: ['python'] });
  t.true(warmed!.practiced > 0, `${warmed!.practiced} rounds of practice`);
});
