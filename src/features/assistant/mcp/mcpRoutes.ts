import { z } from 'zod';
import { defineRoute, type RouteRateLimit, type RouteSpec } from '../../../http/defineRoute.js';
import { errorBodySchema } from '../../../http/errorBodySchema.js';
import { assistantCaller } from '../authenticateAssistant.js';
import type { Retriever } from '../retrieval/Retriever.js';
import type { ReaderGate } from '../../deployments/site/ReaderGate.js';

/**
 * The MCP SDK and the server built on it, loaded at the first MCP request: importing them costs
 * ~0.2 s of CPU, paid by every process that starts the appliance (each test file, each child
 * appliance) although few ever call the endpoint.
 */
async function loadMcp() {
  const [{ StreamableHTTPServerTransport }, { createDocsMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('./createDocsMcpServer.js'),
  ]);
  return { StreamableHTTPServerTransport, createDocsMcpServer };
}

/** Where agents reach the MCP server, on every site host. */
export const MCP_PATH = '/_enclave/mcp';

/** What the MCP endpoint needs. */
export interface McpRouteDeps {
  retriever: Retriever;
  rateLimit: RouteRateLimit[];
  bodyLimitBytes: number;
  version: string;
  /** Reader sign-in's gate: which sites have it on (absent: none). */
  readerGate?: ReaderGate;
}

/**
 * `POST /_enclave/mcp`: the Model Context Protocol over streamable HTTP, stateless (a server and
 * transport per request; no session to keep or expire), answering plain JSON. The site is the
 * request's Host; the caller needs an assistant key of that site's project. GET (a standing
 * event stream) has nothing to carry without sessions: the router answers it 405.
 */
export function mcpRoutes(deps: McpRouteDeps): RouteSpec[] {
  return [
    defineRoute({
      method: 'POST',
      path: MCP_PATH,
      summary: 'MCP (streamable HTTP, stateless) for the site named by Host: tools `search` and `get_page`',
      tag: 'assistant',
      auth: 'assistant',
      body: z.unknown().describe('A JSON-RPC message or batch (Model Context Protocol)'),
      bodyLimitBytes: deps.bodyLimitBytes,
      rateLimit: deps.rateLimit,
      responses: {
        200: { description: 'JSON-RPC response(s)' },
        202: { description: 'Notification accepted' },
        401: { description: 'Missing or invalid assistant key', schema: errorBodySchema },
        403: { description: "A site of another project than the key's", schema: errorBodySchema },
        404: { description: 'No site serves this Host', schema: errorBodySchema },
        429: { description: 'Rate limit of the key or of the client address spent (Retry-After)', schema: errorBodySchema },
      },
      async handler(ctx, { body }) {
        const { StreamableHTTPServerTransport, createDocsMcpServer } = await loadMcp();
        const server = createDocsMcpServer(deps.retriever, assistantCaller(ctx).domain, {
          name: 'enclave-docs',
          version: deps.version,
          readerGate: deps.readerGate,
        });
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        // The transport writes the response itself; Koa must not.
        ctx.respond = false;
        ctx.res.once('close', () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(ctx.req, ctx.res, body);
      },
    }),
  ];
}
