import { createServer } from 'node:net';

/**
 * A port on 127.0.0.1 nothing listens on right now, for programs that take no port 0 (sshd,
 * nginx, a child appliance). Another process may take it before the caller does; callers that
 * can see that retry.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
