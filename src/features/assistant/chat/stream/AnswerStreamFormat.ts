/** A cited source as both stream formats carry it. */
export interface StreamSource {
  id: string;
  url: string;
  title: string;
}

/** How a turn finished, as the SDKs report it. */
export interface StreamFinish {
  reason: 'stop' | 'length' | 'other';
  usage?: { promptTokens: number; completionTokens: number };
}

/**
 * One wire format for a streamed answer: AI SDK v4's data stream or v5's UI message stream.
 * Each method returns the bytes to write for that step; a format instance serves one response
 * (v5 numbers its text parts), and after `error` or `finish` nothing more is written.
 */
export interface AnswerStreamFormat {
  /** Response headers besides the thread id. */
  readonly headers: Record<string, string>;
  start(ids: { threadId: string; messageId: string }): string;
  text(delta: string): string;
  sources(sources: StreamSource[]): string;
  error(message: string): string;
  finish(finish: StreamFinish): string;
}
