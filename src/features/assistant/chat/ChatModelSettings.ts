/** How to reach the model endpoint and how long to wait for it (from `assistant.*` config). */
export interface ChatModelSettings {
  /** Base URL of an OpenAI-compatible server, without `/v1` (`http://llm.intranet:8080`). */
  endpoint: string;
  model: string;
  /** Sent as `Authorization: Bearer …` when set (vLLM `--api-key`, LocalAI, a gateway). */
  apiKey?: string;
  /** Until the response headers arrive. */
  connectTimeoutMs: number;
  /** From the headers until the first piece of the answer (prompt processing on a busy GPU). */
  firstTokenTimeoutMs: number;
  /** Longest pause between two pieces of the answer. */
  idleTimeoutMs: number;
  /** The whole answer, from the request on. */
  totalTimeoutMs?: number;
  /** Cap on the answer's length, passed as `max_tokens`. */
  maxAnswerTokens: number;
  temperature?: number;
}

/** One message of the conversation sent to the model. */
export interface ChatModelMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What the model stream yields: pieces of the answer, then how it finished. */
export type ChatModelEvent =
  | { type: 'text'; text: string }
  | { type: 'finish'; reason: 'stop' | 'length' | 'other'; usage?: { promptTokens: number; completionTokens: number } };
