import { AppError } from '../../../platform/AppError.js';
import { newUlid } from '../../../platform/newUlid.js';
import type { Retriever, SearchFilter } from '../retrieval/Retriever.js';
import type { AnswerEvent } from './AnswerEvent.js';
import type { AnswerRequest } from './AnswerRequest.js';
import type { AnswerDeps } from './AnswerDeps.js';
import { streamAnswer } from './streamAnswer.js';

/** A question accepted for answering: its ids, and the events to stream. */
export interface PreparedAnswer {
  threadId: string;
  events(signal: AbortSignal): AsyncGenerator<AnswerEvent>;
}

/**
 * Everything that can refuse a question with an HTTP status happens here, before the first
 * byte is streamed: the assistant off (503), the global rate spent (429), a thread that is
 * not this site's (404). Afterwards failures can only be error events in the stream.
 */
export async function prepareAnswer(deps: AnswerDeps, request: AnswerRequest): Promise<PreparedAnswer> {
  const model = deps.model();
  if (!model) throw AppError.unavailable('The assistant is not enabled on this appliance');
  if (request.threadId) {
    const first = deps.threads.thread(request.threadId)?.[0];
    if (!first || first.domain !== request.domain) throw AppError.notFound(`No thread ${request.threadId} on this site`);
  }
  // The flood bound counts every question; the floor only stops recording (answers still stream).
  const verdict = deps.guard.admitNow();
  if (verdict === 'rate') {
    throw new AppError(429, 'Too many questions from all readers together; try again in a minute', { headers: { 'Retry-After': '60' } });
  }
  const now = deps.clock.now();
  const threadId = request.threadId ?? newUlid(now);
  const filter = await defaultFilter(deps.retriever, request);
  return {
    threadId,
    events: (signal) =>
      streamAnswer({
        deps,
        model,
        request: { ...request, filter },
        threadId,
        messageId: newUlid(now),
        at: now,
        record: verdict === 'ok',
        signal,
      }),
  };
}

/** The filter's version and language default to those of the page the reader is on. */
async function defaultFilter(retriever: Retriever, request: AnswerRequest): Promise<SearchFilter | undefined> {
  const given = request.filter ?? {};
  if (!request.currentPath || (given.version && given.language)) return request.filter;
  const scope = await retriever.scopeOf(request.domain, request.currentPath, request.audience);
  if (!scope) return request.filter;
  return {
    ...given,
    version: given.version ?? scope.version ?? undefined,
    language: given.language ?? scope.language ?? undefined,
  };
}
