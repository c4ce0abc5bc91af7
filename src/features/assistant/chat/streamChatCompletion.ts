import type { ChatModelEvent, ChatModelMessage, ChatModelSettings } from './ChatModelSettings.js';
import { ModelError } from './ModelError.js';
import { parseCompletionChunk } from './parseCompletionChunk.js';
import { readServerSentData } from './readServerSentData.js';
import { Watchdog } from './Watchdog.js';

/**
 * Streams one answer from `POST {endpoint}/v1/chat/completions` (`stream: true`), the API
 * llama.cpp server, vLLM, Ollama and LocalAI all speak. Yields the answer's pieces, then one
 * `finish`. Every way the call can go wrong (endpoint down, too slow, an error body, garbage,
 * a stream cut short) ends in a ModelError; aborting `signal` (the reader left) cancels the
 * upstream request at once, and so does a consumer that stops iterating.
 */
export async function* streamChatCompletion(
  settings: ChatModelSettings,
  messages: ChatModelMessage[],
  signal?: AbortSignal,
): AsyncGenerator<ChatModelEvent> {
  const upstream = new AbortController();
  const onAbort = () => upstream.abort(new ModelError('aborted', 'The question was cancelled'));
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const watchdog = new Watchdog(upstream);
  const total = settings.totalTimeoutMs
    ? setTimeout(
        () => upstream.abort(new ModelError('timeout', 'The answer took too long', `over ${settings.totalTimeoutMs} ms`)),
        settings.totalTimeoutMs,
      )
    : undefined;
  try {
    watchdog.arm(settings.connectTimeoutMs, 'The model endpoint did not answer in time');
    const body = await openStream(settings, messages, upstream.signal);
    watchdog.arm(settings.firstTokenTimeoutMs, 'The model did not start answering in time');
    let finish: Extract<ChatModelEvent, { type: 'finish' }> | undefined;
    for await (const data of readServerSentData(body)) {
      if (data === '[DONE]') {
        finish ??= { type: 'finish', reason: 'other' };
        break;
      }
      const chunk = parseCompletionChunk(data);
      if (chunk.usage && finish) finish.usage = chunk.usage;
      if (chunk.finishReason) finish = { type: 'finish', reason: chunk.finishReason, usage: chunk.usage };
      if (chunk.text) {
        watchdog.pause();
        yield { type: 'text', text: chunk.text };
        watchdog.arm(settings.idleTimeoutMs, 'The model stopped answering');
      }
    }
    if (!finish) throw new ModelError('upstream', 'The model endpoint closed the stream before the answer was complete');
    yield finish;
  } catch (err) {
    throw asModelError(err, upstream.signal);
  } finally {
    watchdog.pause();
    clearTimeout(total);
    signal?.removeEventListener('abort', onAbort);
    // Ends the upstream request when the consumer stopped early (a reader closing the tab).
    upstream.abort(new ModelError('aborted', 'The question was cancelled'));
  }
}

/** Sends the request; resolves with the event stream once the headers say it is one. */
async function openStream(
  settings: ChatModelSettings,
  messages: ChatModelMessage[],
  signal: AbortSignal,
): Promise<AsyncIterable<Uint8Array>> {
  const response = await fetch(new URL('v1/chat/completions', withSlash(settings.endpoint)), {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'text/event-stream',
      ...(settings.apiKey ? { Authorization: `Bearer ${settings.apiKey}` } : {}),
    },
    body: JSON.stringify(requestBody(settings, messages)),
    signal,
  });
  if (!response.ok) throw await upstreamError(response);
  if (!/^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '') || !response.body) {
    throw new ModelError('garbage', 'The model endpoint did not answer with a stream', response.headers.get('content-type') ?? 'no type');
  }
  // Node's web streams are async iterable; the DOM typings in lib do not say so.
  return response.body as unknown as AsyncIterable<Uint8Array>;
}

function withSlash(endpoint: string): string {
  return endpoint.endsWith('/') ? endpoint : `${endpoint}/`;
}

function requestBody(settings: ChatModelSettings, messages: ChatModelMessage[]): Record<string, unknown> {
  return {
    model: settings.model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    max_tokens: settings.maxAnswerTokens,
    ...(settings.temperature === undefined ? {} : { temperature: settings.temperature }),
  };
}

/** An error response: OpenAI's `{error: {message}}`, Ollama's `{error: "…"}`, or anything else. */
async function upstreamError(response: Response): Promise<ModelError> {
  const text = await response.text().catch(() => '');
  let said = text.slice(0, 300);
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
    if (typeof message === 'string') said = message.slice(0, 300);
  } catch {
    // Not JSON: keep the start of the text for the log.
  }
  const message =
    response.status === 401 || response.status === 403
      ? 'The model endpoint refused the appliance’s API key'
      : response.status === 404
        ? 'The model endpoint does not know this model or path'
        : 'The model endpoint answered with an error';
  return new ModelError('upstream', message, `HTTP ${response.status}: ${said}`);
}

/** What an abort, a network failure or our own error means for the reader. */
function asModelError(err: unknown, signal: AbortSignal): ModelError {
  if (signal.aborted && signal.reason instanceof ModelError) return signal.reason;
  if (err instanceof ModelError) return err;
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  return new ModelError('unreachable', 'The model endpoint could not be reached', cause?.code ?? cause?.message ?? String(err));
}
