import type { AnswerStreamFormat, StreamSource } from './AnswerStreamFormat.js';

function event(chunk: unknown): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

const DONE = 'data: [DONE]\n\n';

/**
 * AI SDK v5's UI message stream (server-sent events), as `useChat` from `ai@5` reads it: a
 * `start` carrying the thread id in the message metadata, one step with one text part, the
 * cited `source-url`s, then `finish` or `error`, and `[DONE]`.
 */
export function uiMessageStreamV5(): AnswerStreamFormat {
  let textOpen = false;
  const closeText = () => {
    if (!textOpen) return '';
    textOpen = false;
    return event({ type: 'text-end', id: 'text-1' });
  };
  return {
    headers: {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      'X-Vercel-AI-UI-Message-Stream': 'v1',
      // Proxies in front of the appliance (nginx) must pass each event on at once.
      'X-Accel-Buffering': 'no',
    },
    start: ({ threadId, messageId }) => event({ type: 'start', messageId, messageMetadata: { threadId } }) + event({ type: 'start-step' }),
    text(delta) {
      const opening = textOpen ? '' : event({ type: 'text-start', id: 'text-1' });
      textOpen = true;
      return opening + event({ type: 'text-delta', id: 'text-1', delta });
    },
    sources: (sources: StreamSource[]) =>
      closeText() + sources.map((s) => event({ type: 'source-url', sourceId: s.id, url: s.url, title: s.title })).join(''),
    error: (message) => closeText() + event({ type: 'error', errorText: message }) + DONE,
    finish: () => closeText() + event({ type: 'finish-step' }) + event({ type: 'finish' }) + DONE,
  };
}
