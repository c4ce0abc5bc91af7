import test from 'ava';
import { INITIAL, type IGrammar } from '@shikijs/vscode-textmate';
import { waitVerdict } from '../../src/render/code/CodeTokenizerThread.js';
import { DEFAULT_LINE_TIME_LIMIT_MS, LINE_TIME_LIMIT_VARIABLE, lineTimeLimitMs } from '../../src/render/code/lineTimeLimit.js';
import { createLineTokenizer } from '../../src/render/code/tokenizeLines.js';

/** A grammar that records the time limit each line is tokenized with, and calls every line one plain token. */
function recordingGrammar(limits: number[]): IGrammar {
  return {
    tokenizeLine2(_line: string, _state: unknown, timeLimit?: number) {
      limits.push(timeLimit ?? Number.NaN);
      return { tokens: new Uint32Array([0, 0]), ruleStack: INITIAL, stoppedEarly: false };
    },
  } as unknown as IGrammar;
}

test('the per-line time limit comes from the environment: unset means shiki’s default, 0 means none', (t) => {
  t.is(lineTimeLimitMs({}), DEFAULT_LINE_TIME_LIMIT_MS);
  t.is(lineTimeLimitMs({ [LINE_TIME_LIMIT_VARIABLE]: '' }), DEFAULT_LINE_TIME_LIMIT_MS);
  t.is(lineTimeLimitMs({ [LINE_TIME_LIMIT_VARIABLE]: '0' }), 0);
  t.is(lineTimeLimitMs({ [LINE_TIME_LIMIT_VARIABLE]: '2500' }), 2500);
  t.is(lineTimeLimitMs({ [LINE_TIME_LIMIT_VARIABLE]: '-1' }), DEFAULT_LINE_TIME_LIMIT_MS, 'nonsense keeps the default');
  t.is(lineTimeLimitMs({ [LINE_TIME_LIMIT_VARIABLE]: 'soon' }), DEFAULT_LINE_TIME_LIMIT_MS);
});

test('the test suite runs with no per-line time limit, so load can never cut a line short', (t) => {
  t.is(lineTimeLimitMs(), 0, 'package.json ava.environmentVariables sets it');
});

test('the line tokenizer hands the grammar exactly the limit it was given, for every line', (t) => {
  for (const limit of [0, 7, DEFAULT_LINE_TIME_LIMIT_MS]) {
    const seen: number[] = [];
    const lines = createLineTokenizer({ maxLineLength: 100, remember: false, lineTimeLimitMs: limit, kindOf: () => null });
    t.deepEqual(lines.tokenize(recordingGrammar(seen), 'a\nb\n\nc'), [['a'], ['b'], [], ['c']]);
    t.deepEqual(seen, [limit, limit, limit], `limit ${limit}`);
  }
});

test('how long a page waits for the tokenizer thread follows the limits it is given', (t) => {
  const limits = { setupWaitMs: 60_000, stallMs: 30_000 };
  // With the defaults (1 s, 5 s) each of these would have stopped waiting.
  t.is(waitVerdict({ serving: false, sinceAsked: 59_000, sinceBeat: 59_000 }, limits), 'wait');
  t.is(waitVerdict({ serving: false, sinceAsked: 60_001, sinceBeat: 60_001 }, limits), 'tokenize here');
  t.is(waitVerdict({ serving: true, sinceAsked: 90_000, sinceBeat: 29_000 }, limits), 'wait');
  t.is(waitVerdict({ serving: true, sinceAsked: 90_000, sinceBeat: 30_001 }, limits), 'give up');
});
