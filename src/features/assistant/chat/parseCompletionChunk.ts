import { z } from 'zod';
import { ModelError } from './ModelError.js';

const chunkSchema = z.object({
  choices: z
    .array(
      z.object({
        delta: z.object({ content: z.string().nullish() }).passthrough().nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .optional(),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).nullish(),
  error: z.union([z.string(), z.object({ message: z.string().optional() }).passthrough()]).optional(),
});

/** The parts of one `chat.completion.chunk` the assistant uses. */
export interface CompletionChunk {
  text: string;
  finishReason?: 'stop' | 'length' | 'other';
  usage?: { promptTokens: number; completionTokens: number };
}

/**
 * Reads one SSE `data:` payload of a chat completion stream. An `{error}` event (vLLM and
 * llama.cpp send one when generation fails mid-stream) and anything that is not a chunk
 * become ModelErrors, so garbage never reaches the reader as if it were the answer.
 */
export function parseCompletionChunk(data: string): CompletionChunk {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    throw new ModelError('garbage', 'The model endpoint sent a malformed stream', `not JSON: ${data.slice(0, 100)}`);
  }
  const parsed = chunkSchema.safeParse(json);
  if (!parsed.success) throw new ModelError('garbage', 'The model endpoint sent a malformed stream', `not a chunk: ${data.slice(0, 100)}`);
  const { choices, usage, error } = parsed.data;
  if (error !== undefined) {
    const said = typeof error === 'string' ? error : (error.message ?? 'no message');
    throw new ModelError('upstream', 'The model failed while answering', said);
  }
  if (!choices) throw new ModelError('garbage', 'The model endpoint sent a malformed stream', `no choices: ${data.slice(0, 100)}`);
  const first = choices[0];
  const reason = first?.finish_reason;
  return {
    text: first?.delta?.content ?? '',
    finishReason: reason ? (reason === 'stop' || reason === 'length' ? reason : 'other') : undefined,
    usage: usage ? { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } : undefined,
  };
}
