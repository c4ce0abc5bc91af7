import { z } from 'zod';

/** HTTP listener, timeouts and which host names serve the admin API and the site. */
export const serverConfigSchema = z.strictObject({
  host: z.string().min(1).describe('Address to listen on. Use 0.0.0.0 inside a container.'),
  port: z.number().int().min(0).max(65535).describe('TCP port; 0 picks a free port.'),
  publicUrl: z.url().nullable().describe('Base URL of signed links (e.g. http://docs.corp.internal:8080). Null: derived from host and port.'),
  adminHosts: z.array(z.string()).describe('Host names that reach the admin API. Empty: every host.'),
  siteHosts: z.array(z.string()).describe('Host names that reach the docs site. Empty: every host.'),
  requestTimeoutMs: z.number().int().positive().describe('Longest time to receive a whole request (slow-client guard).'),
  headersTimeoutMs: z.number().int().positive().describe('Longest time to receive request headers.'),
  keepAliveTimeoutMs: z.number().int().positive().describe('Idle keep-alive connections are closed after this. Keep it above the clients\' and proxies\' own idle timeout: a server that closes first races the client\'s next request on that connection, which then fails with a reset.'),
  maxConnections: z.number().int().positive().describe('Concurrent sockets; more are refused.'),
  shutdownTimeoutMs: z.number().int().positive().describe('SIGTERM: how long in-flight work may take before exit.'),
  trustProxy: z.boolean().describe('Use X-Forwarded-For for client addresses (only behind a trusted proxy).'),
});

/** Request body caps. */
export const limitsConfigSchema = z.strictObject({
  adminBodyBytes: z.number().int().positive().describe('Largest admin API request body.'),
  feedbackBodyBytes: z.number().int().positive().describe('Largest feedback request body.'),
  minFreeBytes: z.number().int().min(0).describe('Feedback posts and analytics events are refused (507 / dropped) while the data volume has less than this many bytes free.'),
});
