import type { PageBody } from '../incremental/PageBody.js';
import type { PageOutput } from '../incremental/PageOutputs.js';
import type { AnchorCheck } from '../links/createPageContext.js';
import type { LlmsPage } from '../output/buildLlmsTxt.js';
import type { AgentSearchEntry } from '../search/agentSearchChannel.js';
import type { SearchEntry } from '../search/searchIndexScript.js';
import type { SectionChunk } from '../search/sectionChunks.js';

/** Runtime features a page can pull in (their files are copied once per bundle). */
export type PageFeature = 'mermaid' | 'katex' | 'openapi' | 'islands';

/**
 * Everything one rendered page contributes to the site-wide outputs. Plain data, so a worker
 * thread can send it to the thread that assembles the bundle.
 */
export interface PageResult {
  position: number;
  /** The body the page was assembled from: what it reported, and what the incremental cache keeps. */
  body: PageBody;
  /** The page's bundle files: bundle-relative path and content. */
  files: [string, string][];
  /**
   * Set instead of `files` when the page's files were taken from the previous bundle unassembled
   * (its output key was unchanged): what they are, and the source files its HTML references.
   */
  copied?: PageOutput;
  /** `tryIt`: the page carries a "Try it" form; `connect` lists the origins its spec names (see tryItOrigins). */
  manifest: { path: string; title: string; file: string; tryIt?: { connect: string[] } };
  /** Set when the page failed and got an error page instead. */
  failedReason?: string;
  /**
   * `agents`: the page's agent-only text (search index agent channel), when it has any;
   * `chunks`: its sections for the assistant's retrieval (sectionChunks.ts).
   */
  indexed?: { search: SearchEntry; llms: LlmsPage; agents?: AgentSearchEntry; chunks: SectionChunk[] };
  fellBack: boolean;
  ids: string[];
  anchorChecks: AnchorCheck[];
  /** The page's Markdown copy (also among `files`), streamed into llms-full.txt; null for a failed page. */
  markdown: string | null;
  features: PageFeature[];
  /** Class names authored on the page, for the site's utility stylesheet. */
  classes: string[];
}
