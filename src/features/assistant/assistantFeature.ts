import { join } from 'node:path';
import type { Middleware } from 'koa';
import { SECTION_CHUNKS_FILE } from '../../render/index.js';
import { RateLimiter } from '../../http/RateLimiter.js';
import type { ActiveSite } from '../deployments/ActiveSite.js';
import type { Feature, FeatureContext } from '../Feature.js';
import type { Task } from '../../platform/Task.js';
import type { VerifyAssistantKey } from './AssistantCaller.js';
import { authenticateAssistant } from './authenticateAssistant.js';
import { KeywordRetriever } from './retrieval/KeywordRetriever.js';
import type { Retriever } from './retrieval/Retriever.js';
import { SectionVectors } from './retrieval/vectors/SectionVectors.js';
import { searchRoutes } from './routes/searchRoutes.js';
import { mcpRoutes } from './mcp/mcpRoutes.js';
import { IngestGuard } from '../../http/IngestGuard.js';
import type { AnswerDeps } from './chat/AnswerDeps.js';
import { ThreadLog } from './threads/ThreadLog.js';
import { dropOldThreads } from './threads/dropOldThreads.js';
import { messageRoutes } from './routes/messageRoutes.js';
import { modelSettings } from './chat/modelSettings.js';
import { assistantAnalyticsRoutes } from './routes/assistantAnalyticsRoutes.js';
import { panelRoutes } from './routes/panelRoutes.js';
import type { ReaderGate } from '../deployments/site/ReaderGate.js';

/** Daily, in the quiet hours: thread retention drops whole day files. */
const THREAD_RETENTION_CRON = '41 3 * * *';
/** Daily, after it: the vector cache is pruned to the live versions' sections. */
const VECTOR_CACHE_PRUNE_CRON = '47 3 * * *';
/** The prune task's name (tests run it by name, as the scheduler would). */
export const VECTOR_CACHE_PRUNE_TASK = 'assistant-vector-cache-prune';

/** What the assistant is built from besides the context: the live sites and control's key check. */
export interface AssistantDeps {
  activeSite: ActiveSite;
  /** The analytics endpoints' shared budget (the assistant's reports draw on it too). */
  analyticsLimiter: RateLimiter;
  verifyAssistantKey: VerifyAssistantKey;
  /** Reader sign-in's gate (the site handler's): which sites have it on, and who a cookie names. */
  readerGate?: ReaderGate;
}

/** The assistant feature: retrieval over the live sites, its routes and assistant-key authentication. */
export interface AssistantFeature extends Feature {
  authenticateAssistant: Middleware;
  retriever: Retriever & Pick<KeywordRetriever, 'vectorsSettled'>;
  /** The stored question-and-answer turns (tests and analytics look inside). */
  threads: ThreadLog;
}

/**
 * Builds the assistant: keyword (or hybrid, with an embedding model) retrieval over each live version's section chunks, the search
 * and page endpoints and the MCP server (assistant keys, limited per key and per client address).
 */
export async function createAssistantFeature(ctx: FeatureContext, deps: AssistantDeps): Promise<AssistantFeature> {
  const settings = ctx.config.assistant;
  const vectors = sectionVectors(ctx, deps.activeSite);
  const retriever = new KeywordRetriever(
    (domain) => {
      // current() falls back to the default site for a host without a site of its own: only an exact match counts.
      const info = deps.activeSite.current(domain);
      return info && info.domain.toLowerCase() === domain && info.installed ? info.installed : undefined;
    },
    { maxIndexBytes: settings.maxIndexBytes, logger: ctx.logger, vectors },
  );
  const searchLimits = searchLimiters(ctx);
  const threads = await ThreadLog.open({ dataDir: ctx.config.dataDir, logger: ctx.logger });
  const answers = answerDeps(ctx, retriever, threads);
  const messageLimits = messageLimiters(ctx);
  return {
    name: 'assistant',
    threads,
    async stop() {
      await threads.close();
    },
    tasks: [...retentionTasks(settings.threadRetentionDays, threads), ...vectorCacheTasks(vectors)],
    ...(vectors ? { readiness: () => vectors.readiness() } : {}),
    routes: [
      ...searchRoutes({
        retriever,
        rateLimit: searchLimits,
        bodyLimitBytes: ctx.config.limits.adminBodyBytes,
        readerGate: deps.readerGate,
      }),
      ...messageRoutes({
        answers,
        limits: settings,
        rateLimit: messageLimits,
        bodyLimitBytes: ctx.config.limits.adminBodyBytes,
        readerGate: deps.readerGate,
      }),
      // Under /_enclave/, like the other endpoints pages post to: the small public cap (the panel keeps its history short).
      ...panelRoutes({
        answers,
        sites: ctx.sites,
        limits: settings,
        rateLimit: [messageLimits[0]!],
        bodyLimitBytes: ctx.config.limits.feedbackBodyBytes,
        readerGate: deps.readerGate,
      }),
      ...assistantAnalyticsRoutes({ turns: threads, limiter: deps.analyticsLimiter }),
      // Under /_enclave/, like the other endpoints pages and agents post to: the small public cap.
      ...mcpRoutes({
        retriever,
        rateLimit: searchLimits,
        bodyLimitBytes: ctx.config.limits.feedbackBodyBytes,
        version: ctx.version,
        readerGate: deps.readerGate,
      }),
    ],
    authenticateAssistant: authenticateAssistant({ verify: deps.verifyAssistantKey, sites: ctx.sites, logger: ctx.logger }),
    retriever,
  };
}

/**
 * Hybrid ranking's section vectors, when the endpoint and an embedding model are set; only then
 * has the feature a readiness line (the endpoint's breaker: keyword-only ranking while open).
 */
function sectionVectors(ctx: FeatureContext, activeSite: ActiveSite): SectionVectors | undefined {
  const {
    endpoint,
    embeddingModel,
    apiKey,
    embeddingTimeoutMs,
    maxEmbeddedSections,
    embeddingBackoffMs,
    embeddingBackoffMaxMs,
    vectorCacheMaxBytes,
  } = ctx.config.assistant;
  if (!endpoint || !embeddingModel) return undefined;
  return new SectionVectors(
    {
      endpoint,
      model: embeddingModel,
      apiKey: apiKey ?? undefined,
      timeoutMs: embeddingTimeoutMs,
      dataDir: ctx.config.dataDir,
      maxSections: maxEmbeddedSections,
      backoff: { firstMs: embeddingBackoffMs, maxMs: embeddingBackoffMaxMs },
      cacheMaxBytes: vectorCacheMaxBytes,
    },
    {
      logger: ctx.logger,
      clock: ctx.clock,
      liveChunkFiles: () => activeSite.all().flatMap((s) => (s.installed ? [join(s.installed.filesDir, SECTION_CHUNKS_FILE)] : [])),
    },
  );
}

/** Searches per client address, then per assistant key. */
function searchLimiters(ctx: FeatureContext) {
  const settings = ctx.config.assistant;
  return [
    {
      limiter: new RateLimiter('assistant-search-address', settings.searchPerAddressPerMinute, 60_000, ctx.clock),
      key: (c: { ip: string }) => c.ip,
    },
    {
      limiter: new RateLimiter('assistant-search-key', settings.searchPerKeyPerMinute, 60_000, ctx.clock),
      key: (c: { state: { auth?: { keyId: string } } }) => c.state.auth?.keyId ?? '',
    },
  ];
}

/** Thread retention (none when `days` is 0: threads are kept). */
function retentionTasks(days: number, threads: ThreadLog): Task[] {
  if (days <= 0) return [];
  return [{ name: 'assistant-thread-retention', cron: THREAD_RETENTION_CRON, run: (now) => dropOldThreads(threads, days, now) }];
}

/** Daily, after thread retention: the vector cache keeps only what live versions use (none without embeddings). */
function vectorCacheTasks(vectors: SectionVectors | undefined): Task[] {
  if (!vectors) return [];
  return [
    {
      name: VECTOR_CACHE_PRUNE_TASK,
      cron: VECTOR_CACHE_PRUNE_CRON,
      run: async () => {
        await vectors.pruneCache();
      },
    },
  ];
}

/** What answering needs, from the assistant settings. */
function answerDeps(ctx: FeatureContext, retriever: Retriever, threads: ThreadLog): AnswerDeps {
  const settings = ctx.config.assistant;
  return {
    retriever,
    model: () => modelSettings(settings),
    threads,
    guard: new IngestGuard({
      name: 'assistant',
      perMinute: settings.messagesGlobalPerMinute,
      minFreeBytes: settings.threadMinFreeBytes,
      dataDir: ctx.config.dataDir,
      clock: ctx.clock,
    }),
    clock: ctx.clock,
    logger: ctx.logger,
    maxPromptChars: settings.maxContextChars + settings.maxMessageChars * 2,
  };
}

/** Answers per client address, then per assistant key (the panel uses only the first). */
function messageLimiters(ctx: FeatureContext) {
  return [
    {
      limiter: new RateLimiter('assistant-message-address', ctx.config.assistant.messagesPerAddressPerMinute, 60_000, ctx.clock),
      key: (c: { ip: string }) => c.ip,
    },
    {
      limiter: new RateLimiter('assistant-message-key', ctx.config.assistant.messagesPerKeyPerMinute, 60_000, ctx.clock),
      key: (c: { state: { auth?: { keyId: string } } }) => c.state.auth?.keyId ?? '',
    },
  ];
}
