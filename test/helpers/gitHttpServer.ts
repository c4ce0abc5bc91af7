import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGunzip } from 'node:zlib';

/** A running smart-HTTP git server (git's own `git http-backend` behind a small HTTP server). */
export interface GitHttpServer {
  /** `http://127.0.0.1:<port>`: a repository `<root>/docs.git` is at `${url}/docs.git`. */
  url: string;
  /** Requests answered so far, as `METHOD path?query` (tests count fetches). */
  requests: string[];
  close(): Promise<void>;
}

/**
 * Serves every repository under `root` with `git http-backend` (CGI), as a git server on the
 * network would. With `basicAuth`, requests without that user and password get 401, so tests
 * see credentials reach the server and see a missing or wrong one refused.
 */
export async function startGitHttpServer(
  root: string,
  options: { basicAuth?: { user: string; password: string } } = {},
): Promise<GitHttpServer> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (options.basicAuth && !authorized(req, options.basicAuth)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end('unauthorized');
      return;
    }
    runBackend(root, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function authorized(req: IncomingMessage, expected: { user: string; password: string }): boolean {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Basic ')) return false;
  return Buffer.from(header.slice(6), 'base64').toString('utf8') === `${expected.user}:${expected.password}`;
}

/** One CGI request to `git http-backend`: the request body in, the CGI headers turned into an HTTP answer. */
function runBackend(root: string, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const child = spawn('git', ['http-backend'], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_ADDR: '127.0.0.1',
      REMOTE_USER: 'tester',
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const body = req.headers['content-encoding'] === 'gzip' ? req.pipe(createGunzip()) : req;
  body.pipe(child.stdin);
  child.stdin.on('error', () => {});
  let head = Buffer.alloc(0);
  let headersDone = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) return void res.write(chunk);
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) return;
    headersDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else res.setHeader(name, value);
    }
    res.statusCode = status;
    res.write(head.subarray(end + 4));
  });
  child.on('close', () => res.end());
  child.on('error', () => res.writeHead(500).end());
}
