/**
 * render/'s front door: the only module of render/ that code outside it imports (a dependency
 * rule says so). The renderer's code (MDX, components, highlighter, styles: tens of MiB once
 * loaded) loads on first use, so the server, which only checks and hashes docs sources, never
 * loads it; an export worker loads it ahead with `preloadRenderer` and `prepareRenderer`.
 */
import type { RenderSiteOptions, RenderSiteResult } from './renderSite.js';

export { checkDocsSource } from './source/checkDocsSource.js';
export { findUnknownPages } from './source/findUnknownPages.js';
export { hashDocsSource } from './hashDocsSource.js';
export { listSourceFiles } from './source/listSourceFiles.js';
export { preloadRenderer } from './preloadRenderer.js';
export { prepareRenderer, type PreparedRenderer, type RendererPreparation } from './prepareRenderer.js';
export type { RenderSettings, RenderSiteOptions, RenderSiteResult } from './renderSite.js';
export type { BuildReport } from './report/BuildReport.js';
export type { WarmUpResult } from './code/warmUpHighlighter.js';
export { SECTION_CHUNKS_FILE, type SectionChunk } from './search/sectionChunks.js';
export { AGENT_SEARCH_FILE } from './search/agentSearchChannel.js';

/**
 * Renders a Mintlify-format docs source into a self-contained static bundle through
 * `options.out` (see renderSite.ts); loads the renderer first if this process hasn't yet.
 */
export async function renderSite(options: RenderSiteOptions): Promise<RenderSiteResult> {
  const { renderSite: render } = await import('./renderSite.js');
  return render(options);
}
