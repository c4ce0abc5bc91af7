import type { AssistantTurn } from './AssistantTurn.js';

/** A turn as `GET /v1/analytics/{projectId}/assistant` lists it (hosted shape). */
export interface Conversation {
  id: string;
  /** The thread the turn belongs to (not in the hosted shape; the dashboard's thread reader needs it). */
  threadId: string;
  timestamp: string;
  query: string;
  response: string;
  responseType: 'answer' | 'clarifying_question';
  sources: { title: string; url: string }[];
  resolutionStatus: 'answered' | 'unanswered';
  queryCategory: 'how_to' | 'troubleshooting' | 'concept' | 'reference' | 'other';
  pageUrl: string | null;
}

/** Presents a stored turn; failed turns count as unanswered (the reader got no answer). */
export function presentConversation(turn: AssistantTurn): Conversation {
  const asksBack = turn.sources.length === 0 && /\?\s*$/.test(turn.answer) && turn.resolution === 'answered';
  return {
    id: turn.id,
    threadId: turn.threadId,
    timestamp: turn.at,
    query: turn.question,
    response: turn.answer,
    responseType: asksBack ? 'clarifying_question' : 'answer',
    sources: turn.sources,
    resolutionStatus: turn.resolution === 'answered' ? 'answered' : 'unanswered',
    queryCategory: categorise(turn.question),
    pageUrl: turn.pageUrl,
  };
}

/** A rough category from the question's wording: enough to group a dashboard, no model needed. */
function categorise(question: string): Conversation['queryCategory'] {
  const q = question.trim().toLowerCase();
  if (/\b(error|fail(s|ed|ing)?|broken|not work|doesn['’]t work|cannot|can['’]t|crash|refused|denied)\b/.test(q)) return 'troubleshooting';
  if (/^(how|can i|is it possible)\b/.test(q)) return 'how_to';
  if (/^(what|why|when should)\b/.test(q)) return 'concept';
  if (/^(which|where|list|show)\b|\b(parameter|option|field|endpoint|flag|setting)s?\b/.test(q)) return 'reference';
  return 'other';
}

/** A thread as `GET …/assistant/threads/{threadId}` returns it: each turn as a question and an answer. */
export function presentThread(turns: readonly AssistantTurn[]) {
  return {
    threadId: turns[0]!.threadId,
    createdAt: turns[0]!.at,
    messages: turns.flatMap((turn) => [
      { id: `${turn.id}-q`, role: 'user' as const, content: turn.question, createdAt: turn.at },
      { id: turn.id, role: 'assistant' as const, content: turn.answer, createdAt: turn.at },
    ]),
  };
}
