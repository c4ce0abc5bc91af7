/**
 * The search index's agent channel: text written for agents only (`<Visibility for="agents">`),
 * which readers' pages and their search index never carry. A plain JSON file at the bundle root
 * (`search-agents.json`, beside llms.txt) that agents fetch; the reader search UI loads only the
 * reader index script and never this file.
 */
export const AGENT_SEARCH_FILE = 'search-agents.json';

/** One page's agent-only text, with the page's scope as in the reader index (`language:fr`, '' for none). */
export interface AgentSearchEntry {
  path: string;
  title: string;
  scope: string;
  text: string;
}

/** The agent channel file, pages in navigation order. */
export function agentSearchJson(pages: AgentSearchEntry[]): string {
  return `${JSON.stringify({ v: 1, channel: 'agents', pages })}\n`;
}
