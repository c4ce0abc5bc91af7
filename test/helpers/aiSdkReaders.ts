import { callChatApi } from '@ai-sdk/ui-utils';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';

/** What a reader built with the AI SDK ends up showing for one answer. */
export interface SdkReading {
  text: string;
  sources: { id: string; url: string; title?: string }[];
  threadId?: string;
  error?: string;
  finishReason?: string;
  status: number;
}

/** A question as the SDKs' `useChat` would send it, plus the Enclave fields. */
export interface SdkQuestion {
  question: string;
  body?: Record<string, unknown>;
  history?: { role: 'user' | 'assistant'; content: string }[];
  fetch?: typeof fetch;
  headers?: Record<string, string>;
}

/**
 * Reads an answer exactly as `useChat` of `ai@4` does: `callChatApi` from `@ai-sdk/ui-utils`
 * (what `ai@4` ships) POSTs `{ messages, …body }` and parses the data stream.
 */
export async function readWithAiV4(url: string, ask: SdkQuestion): Promise<SdkReading> {
  const reading: SdkReading = { text: '', sources: [], status: 0 };
  const messages = [...(ask.history ?? []), { role: 'user' as const, content: ask.question }].map((m, i) => ({ id: `m${i}`, ...m }));
  try {
    await callChatApi({
      api: url,
      body: { id: 'chat-1', messages, ...ask.body },
      streamProtocol: 'data',
      credentials: undefined,
      headers: ask.headers,
      abortController: () => null,
      restoreMessagesOnFailure: () => {},
      onResponse: (response) => {
        reading.status = response.status;
      },
      onUpdate: ({ message, data }) => {
        reading.text = message.content;
        reading.sources = (message.parts ?? []).flatMap((p) => (p.type === 'source' ? [p.source] : []));
        const thread = (data ?? []).find((d) => d && typeof d === 'object' && 'threadId' in d) as { threadId?: string } | undefined;
        reading.threadId = thread?.threadId;
      },
      onFinish: (_message, { finishReason }) => {
        reading.finishReason = finishReason;
      },
      onToolCall: undefined,
      generateId: () => 'client-id',
      fetch: ask.fetch,
      lastMessage: undefined,
    });
  } catch (err) {
    reading.error = (err as Error).message;
  }
  return reading;
}

/**
 * Reads an answer exactly as `useChat` of `ai@5` does: its `DefaultChatTransport` POSTs the UI
 * messages and parses the server-sent events, `readUIMessageStream` builds the message.
 */
export async function readWithAiV5(url: string, ask: SdkQuestion): Promise<SdkReading> {
  const reading: SdkReading = { text: '', sources: [], status: 0 };
  const baseFetch = ask.fetch ?? fetch;
  const transport = new DefaultChatTransport<UIMessage<{ threadId?: string }>>({
    api: url,
    body: ask.body,
    headers: ask.headers,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await baseFetch(input, init);
      reading.status = response.status;
      return response;
    }) as typeof fetch,
  });
  const messages = [...(ask.history ?? []), { role: 'user' as const, content: ask.question }].map((m, i) => ({
    id: `m${i}`,
    role: m.role,
    parts: [{ type: 'text' as const, text: m.content }],
  }));
  try {
    const stream = await transport.sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-1',
      messageId: undefined,
      messages,
      abortSignal: undefined,
    });
    for await (const message of readUIMessageStream<UIMessage<{ threadId?: string }>>({
      stream,
      terminateOnError: true,
      onError: (err) => {
        reading.error = err instanceof Error ? err.message : String(err);
      },
    })) {
      reading.text = message.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      reading.sources = message.parts.flatMap((p) => (p.type === 'source-url' ? [{ id: p.sourceId, url: p.url, title: p.title }] : []));
      reading.threadId = message.metadata?.threadId;
    }
  } catch (err) {
    reading.error ??= (err as Error).message;
  }
  return reading;
}
