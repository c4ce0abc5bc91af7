import type { TextPiece } from '../../bundle/BundleSink.js';
import type { AnchorCheck } from '../links/createPageContext.js';
import type { LlmsPage } from '../output/buildLlmsTxt.js';
import type { PageFeature, PageResult } from '../parallel/PageResult.js';
import type { AgentSearchEntry } from '../search/agentSearchChannel.js';
import { searchEntryJson } from '../search/searchIndexScript.js';
import { sectionChunkLine } from '../search/sectionChunks.js';
import type { ReportEvent } from './recordReportEvents.js';

/** What the end of the export needs of a page besides its pieces of the streamed files. */
export interface PageShareMeta {
  manifest: PageResult['manifest'];
  fellBack: boolean;
  /** Set for the pages listed in search, the sitemap and llms.txt. */
  llms?: LlmsPage;
  agents?: AgentSearchEntry;
  /** What the page reported while its body rendered (see recordReportEvents). */
  events: ReportEvent[];
  failedReason?: string;
  /** The ids on the page (absent for a failed page, whose anchors are not checked against). */
  ids?: string[];
  anchorChecks: AnchorCheck[];
  classes: string[];
  features: PageFeature[];
}

/**
 * One page's contribution to every site-wide file, as text ready to be streamed: its search
 * entry (JSON, also every audience's), its Markdown copy for llms-full.txt, its section-chunk
 * lines, and the rest as `meta` (llms.txt line, agents' channel entry, report events, ids and
 * anchor checks, classes, features, manifest entry). Made the same way for a page rendered now,
 * one assembled from a kept body, or one read back from the shares record (PageShares), which is
 * what keeps the site-wide files of an incremental export byte-identical to a full one's. The
 * three streamed parts are text, or UTF-8 bytes when they come from the record (streamed as
 * they are, never decoded and encoded again).
 */
export interface PageShare {
  meta: PageShareMeta;
  /** The page's entry in the search index (searchEntryJson), or null when it is not indexed. */
  search: TextPiece | null;
  /** Its Markdown copy (llms-full.txt adds the separator), or null for a failed page. */
  full: TextPiece | null;
  /** Its section-chunk lines, joined ('' when it has none). */
  chunks: TextPiece;
}

/** The share of a page just rendered or assembled. */
export function pageShare(result: PageResult): PageShare {
  const meta: PageShareMeta = {
    manifest: result.manifest,
    fellBack: result.fellBack,
    events: result.body.events,
    anchorChecks: result.anchorChecks,
    classes: result.classes,
    features: result.features,
  };
  if (result.indexed) meta.llms = result.indexed.llms;
  if (result.indexed?.agents) meta.agents = result.indexed.agents;
  if (result.failedReason === undefined) meta.ids = result.ids;
  else meta.failedReason = result.failedReason;
  return {
    meta,
    search: result.indexed ? searchEntryJson(result.indexed.search) : null,
    full: result.markdown,
    chunks: result.indexed ? result.indexed.chunks.map(sectionChunkLine).join('') : '',
  };
}
