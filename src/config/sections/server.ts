import { z } from 'zod';

/** HTTP listener, timeouts and which host names serve the admin API and the site. */
export const serverConfigSchema = z.strictObject({
  host: z.string().min(1).describe('Address to listen on. Use 0.0.0.0 inside a container.'),
  port: z.number().int().min(0).max(65535).describe('TCP port; 0 picks a free port.'),
  publicUrl: z
    .url()
    .nullable()
    .describe('Base URL of signed links (e.g. http://docs.corp.internal:8080). Null: derived from host and port.'),
  adminHosts: z.array(z.string()).describe('Host names that reach the admin API. Empty: every host.'),
  siteHosts: z.array(z.string()).describe('Host names that reach the docs site. Empty: every host.'),
  adminListen: z
    .strictObject({ host: z.string().min(1), port: z.number().int().min(0).max(65535) })
    .nullable()
    .describe(
      'A separate listener for the admin API (/v1, /v2, /openapi.json), e.g. {"host": "10.0.9.2", "port": 8081} on an operator network. Null: the admin API shares host/port with the site. When set, the site port answers no admin API path.',
    ),
  dashboardPort: z
    .number()
    .int()
    .min(0)
    .max(65535)
    .nullable()
    .describe(
      "Port of the admin dashboard's own listener on server.host, used when adminListen is null (with adminListen the dashboard is on that listener). The dashboard never shares an origin with the docs, whose scripts authors control. Null: server.port + 1 (0, a free port, when server.port is 0).",
    ),
  requestTimeoutMs: z.number().int().positive().describe('Longest time to receive a whole request (slow-client guard).'),
  headersTimeoutMs: z.number().int().positive().describe('Longest time to receive request headers.'),
  keepAliveTimeoutMs: z
    .number()
    .int()
    .positive()
    .describe(
      "Idle keep-alive connections are closed after this. Keep it above the clients' and proxies' own idle timeout: a server that closes first races the client's next request on that connection, which then fails with a reset.",
    ),
  maxConnections: z
    .number()
    .int()
    .positive()
    .describe(
      'Concurrent sockets per listener. Near the cap idle keep-alive sockets are closed first; a small slice is kept for /_enclave/health and /_enclave/ready.',
    ),
  maxConnectionsPerAddress: z
    .number()
    .int()
    .positive()
    .describe(
      "Concurrent sockets from one client address; at the cap its own idle sockets are closed first, else new ones are refused. Behind a reverse proxy every reader shares the proxy's address: raise it to maxConnections.",
    ),
  sendStallTimeoutMs: z
    .number()
    .int()
    .positive()
    .describe(
      'A response whose reader takes none of the bytes waiting for it for this long is cut (a minimum send rate). Near the connection cap, the address holding the most sockets also loses a reader stalled for 2 s (or this, if shorter) to make room for another address.',
    ),
  shutdownTimeoutMs: z.number().int().positive().describe('SIGTERM: how long in-flight work may take before exit.'),
  trustProxy: z.boolean().describe('Use X-Forwarded-For for client addresses (only behind a trusted proxy).'),
});

/** Request body caps. */
export const limitsConfigSchema = z.strictObject({
  adminBodyBytes: z.number().int().positive().describe('Largest admin API request body.'),
  feedbackBodyBytes: z.number().int().positive().describe('Largest feedback request body.'),
  minFreeBytes: z
    .number()
    .int()
    .min(0)
    .describe('Feedback posts and analytics events are refused (507 / dropped) while the data volume has less than this many bytes free.'),
});
