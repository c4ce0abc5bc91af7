import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import type { Config } from '../config/schema.js';
import { ConnectionGuard } from '../http/ConnectionGuard.js';

/**
 * Starts an HTTP server on `at` (the site's `server.host`/`port`, or `server.adminListen`) with
 * guards against slow and idle clients (header, request and keep-alive timeouts, the
 * connection caps and minimum send rate of ConnectionGuard) and resolves once it listens.
 */
export async function listen(
  app: Koa,
  server: Config['server'],
  at: { host: string; port: number } = server,
): Promise<{ httpServer: Server; port: number }> {
  // Node checks header/request deadlines on this interval (30 s by default), which would let a
  // trickling client hold a socket far past its deadline.
  const httpServer = createServer({ connectionsCheckingInterval: 1000 });
  const guard = new ConnectionGuard({
    maxConnections: server.maxConnections,
    maxConnectionsPerAddress: server.maxConnectionsPerAddress,
    sendStallMs: server.sendStallTimeoutMs,
  });
  httpServer.on('request', guard.attach(httpServer, app.callback()));
  httpServer.headersTimeout = server.headersTimeoutMs;
  httpServer.requestTimeout = server.requestTimeoutMs;
  httpServer.keepAliveTimeout = server.keepAliveTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(at.port, at.host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  return { httpServer, port: (httpServer.address() as AddressInfo).port };
}

/**
 * Stops accepting connections, lets in-flight requests finish for up to `timeoutMs`, then
 * cuts whatever is left. Node closes only the connections idle at the moment `close` is called;
 * a keep-alive connection whose request finishes later would hold the shutdown until its idle
 * timeout (65 s by default) ran out. So answers sent while draining say `Connection: close`, and
 * connections are closed as soon as they fall idle.
 */
export async function closeGracefully(httpServer: Server, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
  httpServer.prependListener('request', (_req, res) => res.setHeader('Connection', 'close'));
  httpServer.closeIdleConnections();
  const reaper = setInterval(() => httpServer.closeIdleConnections(), 50);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      httpServer.closeAllConnections();
      resolve();
    }, timeoutMs);
  });
  await Promise.race([closed, deadline]);
  clearInterval(reaper);
  clearTimeout(timer);
}
