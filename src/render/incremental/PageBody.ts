import type { AnchorCheck } from '../links/createPageContext.js';
import type { TocEntry } from '../page/finalizeContent.js';
import type { PageFeature } from '../parallel/PageResult.js';
import type { ReportEvent } from './recordReportEvents.js';

/**
 * What rendering one page's content produced, before the theme shell wraps it: everything that
 * depends on the page's own inputs and nothing that depends on the rest of the navigation
 * (sidebar, tabs, breadcrumbs, prev/next, search scope). Plain data: it crosses threads and is
 * what the incremental export keeps on disk, so a title change elsewhere only re-assembles it.
 */
export interface PageBody {
  path: string;
  /** Set when the page's content threw: it becomes an error page. */
  failedReason?: string;
  title: string;
  description?: string;
  descriptionHtml?: string;
  /** The frontmatter fields the shell and the site-wide outputs read. */
  noindex?: boolean;
  hidden?: boolean;
  mode?: string;
  /** The frontmatter `tag`, carried into the assistant's section chunks. */
  tag?: string;
  contentHtml: string;
  toc: TocEntry[];
  tryIt?: { connect: string[] };
  features: PageFeature[];
  markdown: string | null;
  headings: string[];
  sections: [id: string, offset: number][];
  text: string;
  /** The page's agent-only text (already flattened), '' when it has none. */
  agentText: string;
  fellBack: boolean;
  ids: string[];
  anchorChecks: AnchorCheck[];
  classes: string[];
  /** What the page told the report while it rendered, replayed in page order into the export's report. */
  events: ReportEvent[];
  /** Modules (snippets, components) the page loaded, as docs-relative paths: inputs beyond its own file. */
  modules: string[];
}
