import type { StreamFinish, StreamSource } from './stream/AnswerStreamFormat.js';

/** What answering a question yields, in order: start, text…, sources, then finish or error. */
export type AnswerEvent =
  | { type: 'start'; threadId: string; messageId: string }
  | { type: 'text'; text: string }
  | { type: 'sources'; sources: StreamSource[] }
  | ({ type: 'finish' } & StreamFinish)
  | { type: 'error'; message: string };
