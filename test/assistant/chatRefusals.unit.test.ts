import test from 'ava';
import type { AnswerDeps } from '../../src/features/assistant/chat/AnswerDeps.js';
import type { AnswerRequest } from '../../src/features/assistant/chat/AnswerRequest.js';
import { prepareAnswer } from '../../src/features/assistant/chat/prepareAnswer.js';
import type { AssistantTurn } from '../../src/features/assistant/threads/AssistantTurn.js';
import type { IngestVerdict } from '../../src/http/IngestGuard.js';
import { AppError } from '../../src/platform/AppError.js';
import { ManualClock } from '../../src/platform/Clock.js';
import { createLogger } from '../../src/platform/logging/createLogger.js';

// The refusals that must come as HTTP statuses, before any byte of a stream: off, flood, foreign thread.

const model = {
  endpoint: 'http://127.0.0.1:9',
  model: 'm',
  connectTimeoutMs: 1,
  firstTokenTimeoutMs: 1,
  idleTimeoutMs: 1,
  maxAnswerTokens: 1,
};

function deps(options: { on?: boolean; verdict?: IngestVerdict; turns?: Record<string, AssistantTurn[]> } = {}): AnswerDeps {
  return {
    retriever: {
      search: async () => [],
      page: async () => undefined,
      scopeOf: async () => ({ version: 'v1', language: 'fr', product: null }),
    },
    model: () => (options.on === false ? undefined : model),
    threads: { thread: (id: string) => options.turns?.[id] } as unknown as AnswerDeps['threads'],
    guard: { admitNow: () => options.verdict ?? 'ok' } as unknown as AnswerDeps['guard'],
    clock: new ManualClock('2026-05-01T00:00:00Z'),
    logger: createLogger('silent'),
    maxPromptChars: 10_000,
  };
}

const request: AnswerRequest = {
  domain: 'docs.example.com',
  projectId: 'p',
  caller: 'api',
  audience: 'all',
  fp: 'f',
  question: 'q',
  history: [],
  retrievalPageSize: 5,
  context: [],
};

async function statusOf(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return err instanceof AppError ? err.status : -1;
  }
}

test('assistant off: 503; all readers over the global rate: 429 with Retry-After', async (t) => {
  t.is(await statusOf(prepareAnswer(deps({ on: false }), request)), 503);
  const flood = await prepareAnswer(deps({ verdict: 'rate' }), request).catch((err: AppError) => err);
  t.true(flood instanceof AppError && flood.status === 429 && flood.headers?.['Retry-After'] === '60');
});

test('a thread of another site, or none, is 404; below the disk floor the answer still goes ahead', async (t) => {
  const foreign = { ...request, threadId: '01ARZ3NDEKTSV4RRFFQ69G5FAV' };
  t.is(await statusOf(prepareAnswer(deps(), foreign)), 404);
  const other = { domain: 'other.example.com' } as AssistantTurn;
  t.is(await statusOf(prepareAnswer(deps({ turns: { [foreign.threadId]: [other] } }), foreign)), 404);
  const prepared = await prepareAnswer(deps({ verdict: 'disk' }), request);
  t.regex(prepared.threadId, /^01/);
});
