import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Retriever, SearchHit } from '../retrieval/Retriever.js';
import type { ReaderGate } from '../../deployments/site/ReaderGate.js';
import { callerAudience } from '../access/callerAudience.js';

/** The MCP server's name and version, as clients list it. */
export interface McpServerInfo {
  name: string;
  version: string;
  /** Reader sign-in's gate: whether the site has it on (absent: no site does). */
  readerGate?: ReaderGate;
}

const groupsInput = z
  .array(z.string().min(1).max(100))
  .max(50)
  .optional()
  .describe('Reader groups the caller belongs to (sites with reader sign-in: without them only public pages are found)');

/**
 * An MCP server over one site's live docs, with the tools `search` and `get_page` (the same
 * retrieval as POST /v1/search and /v1/page). Built per request: the endpoint is stateless.
 */
export function createDocsMcpServer(retriever: Retriever, domain: string, info: McpServerInfo): McpServer {
  const server = new McpServer(info, { capabilities: { tools: {} } });
  server.registerTool(
    'search',
    {
      title: `Search ${domain}`,
      description: `Search the documentation at ${domain}. Returns the best matching sections, each with its page path and anchor; read a whole page with get_page.`,
      inputSchema: {
        query: z.string().min(1).max(1000).describe('Keywords or a question'),
        pageSize: z.number().int().min(1).max(50).optional().describe('Sections to return (default 10)'),
        version: z.string().min(1).max(100).optional().describe("Docs version (default: the site's default)"),
        language: z.string().min(1).max(35).optional().describe("Language code (default: the site's default)"),
        groups: groupsInput,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ query, pageSize, version, language, groups }) => {
      const audience = callerAudience(info.readerGate, domain, groups);
      const hits = await retriever.search(domain, { query, pageSize: pageSize ?? 10, filter: { version, language } }, audience);
      if (hits.length === 0) return { content: [{ type: 'text', text: `No section of ${domain} matches “${query}”.` }] };
      return { content: hits.map((hit) => ({ type: 'text' as const, text: hitText(hit) })) };
    },
  );
  server.registerTool(
    'get_page',
    {
      title: `Read a page of ${domain}`,
      description: `The full Markdown of one page of ${domain}, by the path search returned (e.g. guides/start).`,
      inputSchema: { path: z.string().min(1).max(1000).describe('Page path'), groups: groupsInput },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ path, groups }) => {
      // A page the caller's groups may not open reads exactly as a missing one.
      const page = await retriever.page(domain, path, callerAudience(info.readerGate, domain, groups));
      if (!page) return { isError: true, content: [{ type: 'text', text: `No page ${path} on ${domain}.` }] };
      return { content: [{ type: 'text', text: page.content }] };
    },
  );
  return server;
}

/** One hit as an agent reads it: where it is, then the section's Markdown. */
function hitText(hit: SearchHit): string {
  const m = hit.metadata;
  const where = `/${hit.path}${m.anchor ? `#${m.anchor}` : ''}`;
  const scope = [m.version && `version ${m.version}`, m.language && `language ${m.language}`].filter(Boolean).join(', ');
  return `${m.title}${m.section ? ` › ${m.section}` : ''}\nPath: ${where}${scope ? ` (${scope})` : ''}\n\n${hit.content}`;
}
