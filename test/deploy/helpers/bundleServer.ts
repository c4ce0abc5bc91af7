import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the test file server behaves. */
export interface BundleServerOptions {
  /** Answer `Range` requests with 206 and advertise `Accept-Ranges: bytes`. */
  ranges?: boolean;
  /** Cut the connection after this many body bytes, for the first `dieTimes` requests. */
  dieAfterBytes?: number;
  dieTimes?: number;
  /** Answer every request with this status and a JSON error body instead of the file. */
  failWith?: { status: number; error: string };
}

/** A second HTTP server on 127.0.0.1 that serves one zip, like another Enclave's /bundles link. */
export interface BundleServer {
  url: string;
  requests: IncomingHttpHeaders[];
  server: Server;
  close(): Promise<void>;
}

/** Serves `zipPath` at `/bundle.zip` (and any other path), re-reading it on every request. */
export async function startBundleServer(zipPath: string, options: BundleServerOptions = {}): Promise<BundleServer> {
  const requests: IncomingHttpHeaders[] = [];
  let died = 0;
  const server = createServer(async (req, res) => {
    requests.push(req.headers);
    if (options.failWith) {
      res.writeHead(options.failWith.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: options.failWith.error }));
      return;
    }
    const data = await readFile(zipPath);
    const etag = `"${data.length}-${data.readUInt32LE(data.length - 6)}"`;
    const headers: Record<string, string> = { 'Content-Type': 'application/zip', ETag: etag };
    if (options.ranges) headers['Accept-Ranges'] = 'bytes';
    let body = data;
    let status = 200;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (options.ranges && range && (!req.headers['if-range'] || req.headers['if-range'] === etag)) {
      const start = Number(range[1]);
      body = data.subarray(start);
      status = 206;
      headers['Content-Range'] = `bytes ${start}-${data.length - 1}/${data.length}`;
    }
    headers['Content-Length'] = String(body.length);
    res.writeHead(status, headers);
    if (options.dieAfterBytes !== undefined && died < (options.dieTimes ?? 1)) {
      died++;
      res.write(body.subarray(0, options.dieAfterBytes), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/bundles/se_0123456789abcdef/bundle.zip?expires=1&kid=k1&sig=SECRETSIGNATURE`,
    requests,
    server,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A port on 127.0.0.1 with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
