/**
 * The agent search channel (`search-agents.json`: every listed page's agent-only text) cut down
 * to the pages `may` allows, for a reader of a site with sign-in. Unlike the search index and
 * llms files, the export builds no per-audience copy of it, so the server cuts the site-wide one;
 * a file that is not the channel's shape is withheld whole (no pages) rather than served as is.
 */
export function agentChannelFor(json: string, may: (page: string) => boolean): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    parsed = null;
  }
  const pages = (parsed as { pages?: unknown })?.pages;
  const kept = Array.isArray(pages) ? pages.filter((p: { path?: unknown }) => typeof p?.path === 'string' && may(p.path)) : [];
  // Only the known fields are written back: anything else the file held is not vouched for.
  return `${JSON.stringify({ v: 1, channel: 'agents', pages: kept })}\n`;
}
