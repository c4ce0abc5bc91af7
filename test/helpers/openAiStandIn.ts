import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the stand-in answers to one chat completion. Stalls wait for `release()` or for the
 * client to hang up, never for a wall-clock delay, so no test's outcome depends on load.
 */
export interface ScriptedReply {
  /** Content deltas, one SSE chunk each. */
  deltas?: string[];
  /** Answer with this status and an error body in OpenAI's shape instead of a stream. */
  error?: { status: number; message: string; type?: string; code?: string | null };
  /** Raw bytes sent as the whole body with a 200 and `text/event-stream` (garbage tests). */
  raw?: string;
  /** Answer with a plain JSON completion even when a stream was asked for (a misconfigured proxy). */
  asJson?: boolean;
  /** Send an `{error}` event in the stream after this many deltas (as vLLM does mid-stream). */
  errorEventAfter?: number;
  /** Hold before the response headers go out. */
  stallBeforeHeaders?: boolean;
  /** Hold after this many deltas (headers and the role chunk already sent). */
  stallAfter?: number;
  /** Destroy the socket after this many deltas, without `[DONE]`. */
  disconnectAfter?: number;
  finishReason?: 'stop' | 'length';
  usage?: { prompt_tokens: number; completion_tokens: number };
}

/** One request the stand-in received, kept for assertions on prompts and aborts. */
export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** True once the client closed the connection before the stand-in finished answering. */
  aborted: boolean;
  /** Resolves when the exchange is over (finished or aborted). */
  ended: Promise<void>;
}

/** A running stand-in for an OpenAI-compatible model endpoint (llama.cpp server, vLLM, Ollama). */
export interface OpenAiStandIn {
  /** Base URL without `/v1` (what `assistant.endpoint` holds). */
  url: string;
  requests: RecordedRequest[];
  /** Replies for the next chat completions, in order; when empty, `fallback` answers. */
  script(...replies: ScriptedReply[]): void;
  /** Answers chat completions when the script is empty (default: a short fixed answer). */
  fallback: (body: Record<string, unknown>) => ScriptedReply;
  /** Lets every held stall go on. */
  release(): void;
  /** Resolves once `count` chat requests have arrived. */
  waitForRequests(count: number): Promise<void>;
  /** When set, `/v1/embeddings` answers 404 like an endpoint without an embedding model. */
  embeddingsOff: boolean;
  /** When set, `/v1/embeddings` holds until `release()` or the client hangs up (a stalled endpoint). */
  embeddingsStall: boolean;
  close(): Promise<void>;
}

/** Dimensions of the stand-in's embedding vectors. */
export const STAND_IN_DIMENSIONS = 64;

/**
 * A deterministic embedding: words hashed into buckets, then L2-normalised, so texts that
 * share words have a high cosine similarity and the same text always gets the same vector.
 */
export function standInEmbedding(text: string): number[] {
  const vector = new Array<number>(STAND_IN_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const digest = createHash('sha256').update(word).digest();
    const bucket = digest.readUInt16BE(0) % STAND_IN_DIMENSIONS;
    vector[bucket] = (vector[bucket] ?? 0) + ((digest[2] ?? 0) & 1 ? 1 : -1);
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((v) => v / norm);
}

const CREATED = 1_767_225_600; // fixed, so recorded streams are byte-stable

/** Starts the stand-in on 127.0.0.1, port 0. It speaks the OpenAI chat and embeddings APIs. */
export async function startOpenAiStandIn(): Promise<OpenAiStandIn> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  let releaseAll: () => void = () => {};
  let released = new Promise<void>((resolve) => {
    releaseAll = resolve;
  });
  const arrivals: Array<() => void> = [];
  const standIn: OpenAiStandIn = {
    url: '',
    requests,
    script: (...replies) => queue.push(...replies),
    fallback: () => ({ deltas: ['The answer ', 'is 42.'] }),
    release() {
      releaseAll();
      released = new Promise<void>((resolve) => {
        releaseAll = resolve;
      });
    },
    waitForRequests(count) {
      const chats = () => requests.filter((r) => r.path === '/v1/chat/completions').length;
      if (chats() >= count) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const check = () => (chats() >= count ? resolve() : arrivals.push(check));
        arrivals.push(check);
      });
    },
    embeddingsOff: false,
    embeddingsStall: false,
    close: async () => {
      releaseAll();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      return sendError(res, { status: 400, message: 'We could not parse the JSON body of your request.' });
    }
    const path = (req.url ?? '').split('?')[0] ?? '';
    let markEnded: () => void = () => {};
    const record: RecordedRequest = {
      path,
      headers: req.headers,
      body,
      aborted: false,
      ended: new Promise((resolve) => {
        markEnded = resolve;
      }),
    };
    res.on('close', () => {
      if (!res.writableFinished) record.aborted = true;
      markEnded();
    });
    requests.push(record);
    for (const check of arrivals.splice(0)) check();
    if (req.method === 'POST' && path === '/v1/chat/completions') return answerChat(body, res, record);
    if (req.method === 'POST' && path === '/v1/embeddings' && !standIn.embeddingsOff) {
      if (standIn.embeddingsStall) await Promise.race([released, record.ended]);
      if (record.aborted) return;
      return answerEmbeddings(body, res);
    }
    if (req.method === 'GET' && path === '/v1/models')
      return sendJson(res, 200, { object: 'list', data: [{ id: 'stand-in', object: 'model', owned_by: 'test' }] });
    return sendError(res, { status: 404, message: `Unknown request URL: ${req.method} ${path}`, code: 'unknown_url' });
  }

  async function answerChat(body: Record<string, unknown>, res: ServerResponse, record: RecordedRequest): Promise<void> {
    const reply = queue.shift() ?? standIn.fallback(body);
    const hold = async () => {
      await Promise.race([released, record.ended]);
    };
    if (reply.stallBeforeHeaders) await hold();
    if (record.aborted) return;
    if (reply.error) return sendError(res, reply.error);
    if (body.stream !== true || reply.asJson) return sendJson(res, 200, completion(body, reply));
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    if (reply.raw !== undefined) {
      res.end(reply.raw);
      return;
    }
    const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const model = String(body.model ?? 'stand-in');
    // Each chunk is flushed before the next step, so a scripted disconnect cuts after exactly what was sent.
    const send = (choices: unknown[], usage?: unknown) =>
      new Promise<void>((resolve) =>
        res.write(
          `data: ${JSON.stringify({ id: 'chatcmpl-standin', object: 'chat.completion.chunk', created: CREATED, model, system_fingerprint: null, choices, ...(includeUsage ? { usage: usage ?? null } : {}) })}\n\n`,
          () => resolve(),
        ),
      );
    await send([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]);
    const deltas = reply.deltas ?? [];
    for (let i = 0; i <= deltas.length; i++) {
      if (reply.stallAfter === i) await hold();
      if (record.aborted) return;
      if (reply.disconnectAfter === i) {
        res.socket?.destroy();
        return;
      }
      if (reply.errorEventAfter === i) {
        res.end(`data: ${JSON.stringify({ error: { message: 'The model crashed', type: 'server_error', param: null, code: null } })}\n\n`);
        return;
      }
      if (i === deltas.length) break;
      await send([{ index: 0, delta: { content: deltas[i] }, logprobs: null, finish_reason: null }]);
    }
    await send([{ index: 0, delta: {}, logprobs: null, finish_reason: reply.finishReason ?? 'stop' }]);
    if (includeUsage) {
      const usage = reply.usage ?? { prompt_tokens: 10, completion_tokens: deltas.length };
      await send([], { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens });
    }
    res.end('data: [DONE]\n\n');
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}

/** A non-streamed chat completion object (for `stream: false`). */
function completion(body: Record<string, unknown>, reply: ScriptedReply): unknown {
  const content = (reply.deltas ?? []).join('');
  const usage = reply.usage ?? { prompt_tokens: 10, completion_tokens: (reply.deltas ?? []).length };
  return {
    id: 'chatcmpl-standin',
    object: 'chat.completion',
    created: CREATED,
    model: String(body.model ?? 'stand-in'),
    choices: [{ index: 0, message: { role: 'assistant', content }, logprobs: null, finish_reason: reply.finishReason ?? 'stop' }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

function answerEmbeddings(body: Record<string, unknown>, res: ServerResponse): void {
  const input = body.input;
  const texts = typeof input === 'string' ? [input] : Array.isArray(input) && input.every((t) => typeof t === 'string') ? input : null;
  if (!texts) {
    sendError(res, { status: 400, message: "'input' must be a string or an array of strings", code: 'invalid_input' });
    return;
  }
  const tokens = texts.reduce((sum, t) => sum + (t.match(/\S+/g)?.length ?? 0), 0);
  sendJson(res, 200, {
    object: 'list',
    data: texts.map((text, index) => ({ object: 'embedding', index, embedding: standInEmbedding(text) })),
    model: String(body.model ?? 'stand-in-embed'),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

function sendError(res: ServerResponse, error: NonNullable<ScriptedReply['error']>): void {
  sendJson(res, error.status, {
    error: {
      message: error.message,
      type: error.type ?? (error.status >= 500 ? 'server_error' : 'invalid_request_error'),
      param: null,
      code: error.code ?? null,
    },
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(value));
}
