import type { Logger } from 'pino';
import type { Clock } from '../../../../platform/Clock.js';
import type { Readiness } from '../../../Feature.js';
import { readSections } from '../readSections.js';
import type { SectionIndex } from '../SectionIndex.js';
import { type EmbeddingBackoff, EmbeddingBreaker } from './EmbeddingBreaker.js';
import { type EmbeddingSettings, fetchEmbeddings } from './fetchEmbeddings.js';
import { liveSectionKeys } from './liveSectionKeys.js';
import { pruneVectorCache, type VectorCachePruned } from './pruneVectorCache.js';
import { sectionEmbeddingText } from './sectionEmbeddingText.js';
import { VectorCache } from './VectorCache.js';

/** Sections sent to the endpoint per request: small enough for a CPU llama.cpp server's batch. */
const BATCH = 32;

/** What hybrid ranking needs: the endpoint, the cache's home and the bounds. */
export interface SectionVectorSettings extends EmbeddingSettings {
  dataDir: string;
  /** A version with more sections than this is ranked by keywords only (bounds memory and embedding time). */
  maxSections: number;
  /** How long to leave the endpoint alone after a failure (EmbeddingBreaker). */
  backoff: EmbeddingBackoff;
  /** The vector cache file's bound: a load that leaves it bigger prunes it at once. */
  cacheMaxBytes: number;
}

/** What SectionVectors needs of the appliance: its log, clock, and the live versions' chunk files. */
export interface SectionVectorDeps {
  logger: Logger;
  clock: Clock;
  /** `sections.jsonl` of every live version: the sections whose vectors the cache keeps. */
  liveChunkFiles(): string[];
}

/**
 * One version's section vectors (unit length, by section id), or null (keyword ranking) with
 * whether a later try may get them (the endpoint failed) or never will (over the bound).
 */
export type VersionVectors = { vectors: Float32Array[] } | { vectors: null; retry: boolean };

/** A version too big to embed: keyword ranking for good, not retried. */
class OverBound extends Error {}

/** Refused by the breaker: no request was sent. */
class BreakerOpen extends Error {}

/**
 * Embeds the sections of deployed versions (through the cache, so unchanged sections are never
 * sent again) and the query of a search. Any failure — no embeddings route, an error, the time
 * limit — is a log line and keyword ranking, never an error to the caller; after one, the
 * endpoint is left alone for a back-off (EmbeddingBreaker). Owns the vector cache's pruning.
 */
export class SectionVectors {
  private readonly breaker: EmbeddingBreaker;
  private readonly logger: Logger;
  /** The cache file's appends and rewrites, one at a time: a prune must not lose lines appended meanwhile. */
  private cacheTurn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly settings: SectionVectorSettings,
    private readonly deps: SectionVectorDeps,
  ) {
    this.breaker = new EmbeddingBreaker(deps.clock, settings.backoff);
    this.logger = deps.logger;
  }

  /**
   * Drops the cached vectors no live version uses any more (versions replaced or rolled away,
   * other embedding models) and bounds the file by `cacheMaxBytes`: the prune task's body.
   */
  pruneCache(): Promise<VectorCachePruned> {
    return this.exclusive(async () => {
      const keep = await liveSectionKeys(this.deps.liveChunkFiles());
      const { dataDir, model, cacheMaxBytes } = this.settings;
      const pruned = await pruneVectorCache(dataDir, model, keep, cacheMaxBytes);
      if (pruned.dropped > 0 || pruned.otherModels > 0) this.logger.info(pruned, 'assistant: vector cache pruned');
      return pruned;
    });
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const turn = this.cacheTurn.then(work, work);
    this.cacheTurn = turn.catch(() => undefined);
    return turn;
  }

  /**
   * Embeds the sections of the version whose chunks are in `file`; resolves to their vectors, or
   * to null when they cannot all be had. Runs in the background of the first search.
   */
  async load(file: string, index: SectionIndex): Promise<VersionVectors> {
    try {
      return { vectors: await this.embedVersion(file, index) };
    } catch (err) {
      if (!(err instanceof BreakerOpen)) {
        this.logger.warn({ err: (err as Error).message }, 'assistant: section embeddings unavailable, keyword ranking only');
      }
      return { vectors: null, retry: !(err instanceof OverBound) };
    }
  }

  /** The query's unit vector, or undefined (keyword ranking) when the endpoint fails, is too slow or is being left alone. */
  async embedQuery(query: string): Promise<Float32Array | undefined> {
    try {
      const [v] = await this.embed([query]);
      return unit(v!);
    } catch (err) {
      if (!(err instanceof BreakerOpen))
        this.logger.warn({ err: (err as Error).message }, 'assistant: query embedding failed, keyword ranking');
      return undefined;
    }
  }

  /** True when a request would be sent now (a version whose embedding failed is worth trying again). */
  endpointAdmitted(): boolean {
    return this.breaker.wouldAdmit();
  }

  /** The embedding endpoint's line of /_enclave/ready. */
  readiness(): Readiness {
    return this.breaker.readiness();
  }

  /** One embeddings request through the breaker; throws BreakerOpen, sending nothing, while it is open. */
  private async embed(texts: string[]): Promise<Float32Array[]> {
    const ticket = this.breaker.tryAcquire();
    if (!ticket) throw new BreakerOpen('the embedding endpoint is being left alone after a failure');
    try {
      const vectors = await fetchEmbeddings(this.settings, this.deps.clock, texts);
      if (this.breaker.succeeded(ticket)) this.logger.info('assistant: the embedding endpoint answers again, hybrid ranking');
      return vectors;
    } catch (err) {
      this.breaker.failed(ticket, (err as Error).message);
      throw err;
    }
  }

  private async embedVersion(file: string, index: SectionIndex): Promise<Float32Array[]> {
    const count = index.parts.sectionPage.length;
    if (count > this.settings.maxSections) throw new OverBound(`${count} sections, over the bound of ${this.settings.maxSections}`);
    // Opened per version and dropped after: memory then holds only the live versions' vectors.
    const cache = await VectorCache.open(this.settings.dataDir, this.settings.model);
    const vectors = new Array<Float32Array>(count);
    for (let start = 0; start < count; start += BATCH) {
      const ids = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => start + i);
      const texts = readSections(file, index, ids).map(sectionEmbeddingText);
      const keys = texts.map((t) => VectorCache.key(t));
      const missing = keys.flatMap((k, i) => (cache.get(k) ? [] : [i]));
      if (missing.length > 0) {
        const got = await this.embed(missing.map((i) => texts[i]!));
        await this.exclusive(() => cache.add(missing.map((i, j) => [keys[i]!, got[j]!])));
      }
      keys.forEach((k, i) => {
        vectors[start + i] = unit(cache.get(k)!);
      });
    }
    // Over the bound between daily prunes (many deploys, a large site): prune now, while the
    // vectors just fetched are the newest lines and so the first kept.
    if (cache.bytes > this.settings.cacheMaxBytes) {
      await this.pruneCache().catch((err: Error) => this.logger.warn({ err: err.message }, 'assistant: vector cache prune failed'));
    }
    return vectors;
  }
}

/** Sections `admit`ted, by cosine with `query` (both unit length), best first, at most `limit`. */
export function cosineRanking(vectors: Float32Array[], query: Float32Array, admit: (id: number) => boolean, limit: number): number[] {
  const scored: { id: number; cos: number }[] = [];
  vectors.forEach((v, id) => {
    if (!admit(id) || v.length !== query.length) return;
    let dot = 0;
    for (let i = 0; i < v.length; i++) dot += v[i]! * query[i]!;
    scored.push({ id, cos: dot });
  });
  return scored
    .sort((a, b) => b.cos - a.cos || a.id - b.id)
    .slice(0, limit)
    .map((s) => s.id);
}

function unit(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  return v.map((x) => x / norm);
}
