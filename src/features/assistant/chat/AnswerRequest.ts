import type { RetrievalAudience, SearchFilter } from '../retrieval/Retriever.js';
import type { AssistantTurn } from '../threads/AssistantTurn.js';
import type { PastTurn, ReaderContext } from './buildAnswerPrompt.js';

/** One question to answer, validated, with who asked it. */
export interface AnswerRequest {
  domain: string;
  projectId: string;
  caller: AssistantTurn['caller'];
  /** Whose pages the answer may draw on and cite (reader sign-in). */
  audience: RetrievalAudience;
  fp: string;
  /** A follow-up names its thread; a first question starts one. */
  threadId?: string;
  question: string;
  /** Earlier messages the client sent (oldest first), without the question. */
  history: PastTurn[];
  retrievalPageSize: number;
  filter?: Omit<SearchFilter, 'tag'>;
  context: ReaderContext[];
  currentPath?: string;
}
