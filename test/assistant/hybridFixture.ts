import type { Clock } from '../../src/platform/Clock.js';
import { type OpenAiStandIn, standInEmbedding } from '../helpers/openAiStandIn.js';
import { ASK_DOMAIN, type AssistantHarness, startAssistantHarness } from './assistantHarness.js';
import type { ConfigOverrides } from '../helpers/testAppliance.js';

/**
 * A site where one section is nothing but a made-up word, so its stand-in vector is that word's
 * bucket; and a query word found (below) that the docs never use but that hashes to the same
 * bucket and sign: its words miss every section while its vector matches that one.
 */
export const HYBRID_SITE: Record<string, string> = {
  'docs.json': JSON.stringify({
    name: 'Hybrid fixture',
    navigation: { groups: [{ group: 'Guides', pages: ['index', 'guides/gate', 'guides/other'] }] },
  }),
  'index.mdx': ['---', 'title: Welcome', '---', '', 'Start with the guides about cables and routers.', ''].join('\n'),
  'guides/gate.mdx': ['---', 'title: Gate', '---', '', '## Wombatgate', '', 'wombatgate wombatgate wombatgate wombatgate', ''].join('\n'),
  'guides/other.mdx': ['---', 'title: Other', '---', '', '## Printers', '', 'Printers need paper, toner and a cable.', ''].join('\n'),
};

/** A word no page uses whose stand-in vector equals that of `wombatgate` (same bucket and sign). */
function collider(): string {
  const target = standInEmbedding('wombatgate').join();
  for (let i = 0; ; i++) if (standInEmbedding(`qx${i}`).join() === target) return `qx${i}`;
}

/** Found by vector only: hybrid ranking puts `guides/gate` first, keyword ranking finds nothing. */
export const VECTOR_ONLY_QUERY = collider();

/** Embeddings requests the stand-in has received so far. */
export const embeddingRequests = (s: OpenAiStandIn) => s.requests.filter((r) => r.path === '/v1/embeddings').length;

/** The hybrid site served with `standIn` as its embedding endpoint, and optional clock and settings. */
export function startHybridHarness(
  standIn: OpenAiStandIn,
  options: { dataDir?: string; clock?: Clock; assistant?: ConfigOverrides['assistant'] } = {},
): Promise<AssistantHarness> {
  return startAssistantHarness(HYBRID_SITE, {
    dataDir: options.dataDir,
    clock: options.clock,
    overrides: { assistant: { endpoint: standIn.url, embeddingModel: 'stand-in-embed', embeddingTimeoutMs: 60_000, ...options.assistant } },
  });
}

/** A search of the hybrid site: its status and the paths of its hits, best first. */
export async function searchPaths(h: AssistantHarness, query: string): Promise<{ status: number; paths: string[] }> {
  const res = await h.post(`/v1/search/${ASK_DOMAIN}`, { query });
  return { status: res.status, paths: ((await res.json()) as { path: string }[]).map((hit) => hit.path) };
}
