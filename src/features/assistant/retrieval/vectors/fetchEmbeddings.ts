import { z } from 'zod';
import { type Clock, timeLimit } from '../../../../platform/Clock.js';

/** Where embeddings come from: `{endpoint}/v1/embeddings` with this model, within `timeoutMs` per request (on the appliance's clock). */
export interface EmbeddingSettings {
  endpoint: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

const embeddingsBody = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
});

/**
 * The vectors of `texts`, in order, from an OpenAI-compatible embeddings endpoint. Throws on a
 * non-2xx answer, a malformed body or the time limit; callers fall back to keyword ranking.
 */
export async function fetchEmbeddings(settings: EmbeddingSettings, clock: Clock, texts: string[]): Promise<Float32Array[]> {
  const res = await fetch(`${settings.endpoint.replace(/\/+$/, '')}/v1/embeddings`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(settings.apiKey ? { Authorization: `Bearer ${settings.apiKey}` } : {}),
    },
    body: JSON.stringify({ model: settings.model, input: texts }),
    signal: timeLimit(clock, settings.timeoutMs),
  });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`embeddings endpoint answered ${res.status}`);
  }
  const parsed = embeddingsBody.parse(await res.json());
  const out = new Array<Float32Array | undefined>(texts.length);
  for (const d of parsed.data) out[d.index] = Float32Array.from(d.embedding);
  if (out.some((v) => v === undefined)) throw new Error('embeddings endpoint left out some inputs');
  return out as Float32Array[];
}
