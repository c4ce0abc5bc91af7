import type { AnswerStreamFormat, StreamFinish, StreamSource } from './AnswerStreamFormat.js';

/** One data stream part: its type code, a colon, JSON, a newline (AI SDK 4's protocol). */
function part(code: string, value: unknown): string {
  return `${code}:${JSON.stringify(value)}\n`;
}

/**
 * AI SDK v4's data stream, as `useChat` from `ai@4` reads it: the thread id as a data part
 * (`2:`), a step (`f:`/`e:`), text parts (`0:`), url sources (`h:`), then the finish (`d:`) or
 * an error (`3:`).
 */
export function dataStreamV4(): AnswerStreamFormat {
  return {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Vercel-AI-Data-Stream': 'v1', 'Cache-Control': 'no-cache' },
    start: ({ threadId, messageId }) => part('2', [{ threadId }]) + part('f', { messageId }),
    text: (delta) => part('0', delta),
    sources: (sources: StreamSource[]) =>
      sources.map((s) => part('h', { sourceType: 'url', id: s.id, url: s.url, title: s.title })).join(''),
    error: (message) => part('3', message),
    finish(finish: StreamFinish) {
      const usage = finish.usage ?? { promptTokens: 0, completionTokens: 0 };
      return part('e', { finishReason: finish.reason, usage, isContinued: false }) + part('d', { finishReason: finish.reason, usage });
    },
  };
}
