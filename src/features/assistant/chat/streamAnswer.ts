import type { AssistantTurn } from '../threads/AssistantTurn.js';
import type { AnswerEvent } from './AnswerEvent.js';
import type { AnswerRequest } from './AnswerRequest.js';
import { buildAnswerPrompt } from './buildAnswerPrompt.js';
import type { ChatModelSettings } from './ChatModelSettings.js';
import { type CitableSection, sectionUrl } from './CitableSection.js';
import { citedSections, isUnanswered } from './citedSections.js';
import { ModelError } from './ModelError.js';
import type { AnswerDeps } from './AnswerDeps.js';
import { streamChatCompletion } from './streamChatCompletion.js';

/** What the answer says when retrieval found nothing: no model call, no guess. */
export const NOTHING_FOUND =
  'I don’t know: I found nothing in this documentation about that. Try other words, or ask the docs team to cover it.';

/** One accepted question, ready to stream. */
export interface AnswerRun {
  deps: AnswerDeps;
  model: ChatModelSettings;
  request: AnswerRequest;
  threadId: string;
  messageId: string;
  at: Date;
  /** False while the data volume is below its floor: the answer streams but is not stored. */
  record: boolean;
  signal: AbortSignal;
}

/**
 * Answers one question: retrieve, build the prompt, stream the model's answer, name the
 * sections it cited, and store the turn. A failure of the model ends the stream with an
 * error event (the turn is stored as failed); retrieval failing is the same.
 */
export async function* streamAnswer(run: AnswerRun): AsyncGenerator<AnswerEvent> {
  const { deps, request } = run;
  yield { type: 'start', threadId: run.threadId, messageId: run.messageId };
  let answer = '';
  let given: CitableSection[] = [];
  let resolution: AssistantTurn['resolution'] = 'failed';
  let cited: CitableSection[] = [];
  try {
    given = await retrieveSections(deps, request);
    if (given.length === 0) {
      answer = NOTHING_FOUND;
      yield { type: 'text', text: answer };
      resolution = 'unanswered';
      yield { type: 'finish', reason: 'stop' };
      return;
    }
    const prompt = buildAnswerPrompt({
      siteName: request.domain,
      question: request.question,
      sections: given,
      history: request.history,
      context: request.context,
      currentPath: request.currentPath,
      maxPromptChars: deps.maxPromptChars,
    });
    given = prompt.sections;
    let finish: Extract<AnswerEvent, { type: 'finish' }> = { type: 'finish', reason: 'other' };
    for await (const event of streamChatCompletion(run.model, prompt.messages, run.signal)) {
      if (event.type === 'text') {
        answer += event.text;
        yield event;
      } else finish = { type: 'finish', reason: event.reason, usage: event.usage };
    }
    cited = citedSections(answer, given);
    resolution = isUnanswered(answer, given) ? 'unanswered' : 'answered';
    if (cited.length > 0)
      yield { type: 'sources', sources: cited.map((s, i) => ({ id: `source-${i + 1}`, url: sectionUrl(s), title: sourceTitle(s) })) };
    yield finish;
  } catch (err) {
    const failure = err instanceof ModelError ? err : undefined;
    deps.logger.warn(
      { err: failure ? { failure: failure.failure, detail: failure.detail } : err, threadId: run.threadId },
      'assistant answer failed',
    );
    if (failure?.failure !== 'aborted')
      yield { type: 'error', message: failure?.message ?? 'The answer could not be made; search still works' };
  } finally {
    if (run.record) await store(run, answer, cited, resolution);
  }
}

/** The retrieved sections as the prompt numbers them, best first. */
async function retrieveSections(deps: AnswerDeps, request: AnswerRequest): Promise<CitableSection[]> {
  const hits = await deps.retriever.search(
    request.domain,
    {
      query: request.question,
      pageSize: request.retrievalPageSize,
      filter: request.filter,
    },
    request.audience,
  );
  return hits.map((hit) => ({
    path: `/${hit.path.replace(/^\/+/, '')}`,
    anchor: hit.metadata.anchor || undefined,
    title: hit.metadata.title,
    section: hit.metadata.section || undefined,
    content: hit.content,
  }));
}

function sourceTitle(section: CitableSection): string {
  return section.section && section.section !== section.title ? `${section.title} › ${section.section}` : section.title;
}

async function store(run: AnswerRun, answer: string, cited: CitableSection[], resolution: AssistantTurn['resolution']): Promise<void> {
  const { request } = run;
  try {
    await run.deps.threads.append({
      id: run.messageId,
      threadId: run.threadId,
      projectId: request.projectId,
      domain: request.domain,
      fp: request.fp,
      caller: request.caller,
      at: run.at.toISOString(),
      question: request.question,
      answer,
      sources: cited.map((s) => ({ title: sourceTitle(s), url: sectionUrl(s) })),
      resolution,
      pageUrl: request.currentPath ?? null,
    });
  } catch (err) {
    // The reader has the answer already; a full disk only costs the record.
    run.deps.logger.error({ err, threadId: run.threadId }, 'assistant turn not recorded');
  }
}
