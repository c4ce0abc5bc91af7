import { connect } from 'node:net';

/** Requests written per socket write: bounded, so neither side buffers a whole run. */
const BATCH = 100;

/**
 * Sends `count` identical GETs of `path` to a 127.0.0.1 server, pipelined over `connections`
 * keep-alive connections, and resolves once every one was answered 200 (else it rejects). The
 * client does no more than write prebuilt bytes and count status lines: unlike autocannon, whose
 * JavaScript HTTP parser costs about as much CPU per response as the server's whole answer, its
 * work hardly depends on the answer's headers, and a pipelined server reads requests in batches
 * whatever the client's speed. So the server's CPU time over such a run is its own cost per
 * request, for comparing two configurations of the same server (bench:reader-auth).
 */
export async function pipelinedLoad(options: {
  port: number;
  path: string;
  headers: Record<string, string>;
  count: number;
  connections: number;
}): Promise<void> {
  const { port, path, headers, count, connections } = options;
  const lines = Object.entries({ Host: `127.0.0.1:${port}`, ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  const one = Buffer.from(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
  const batch = Buffer.concat(Array.from({ length: BATCH }, () => one));
  const per = Math.ceil(count / connections);
  await Promise.all(Array.from({ length: connections }, () => loadOne(port, one, batch, per)));
}

/** One connection's share: `total` requests written in batches, resolved when as many 200s came back. */
function loadOne(port: number, one: Buffer, batch: Buffer, total: number): Promise<void> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    let answered = 0;
    let sent = 0;
    let tail = '';
    const pump = () => {
      while (sent < total) {
        const n = Math.min(BATCH, total - sent);
        sent += n;
        if (!socket.write(n === BATCH ? batch : Buffer.concat(Array.from({ length: n }, () => one))))
          return void socket.once('drain', pump);
      }
    };
    socket.on('connect', pump);
    socket.on('error', fail);
    socket.on('close', () => (answered >= total ? done() : fail(new Error(`${answered} of ${total} requests answered 200`))));
    socket.on('data', (chunk: Buffer) => {
      // Status lines may straddle chunks: keep the end of the last one.
      const text = tail + chunk.toString('latin1');
      let scanned = 0;
      for (let at = text.indexOf('HTTP/1.1 '); at >= 0 && at + 12 <= text.length; at = text.indexOf('HTTP/1.1 ', scanned)) {
        if (text.slice(at + 9, at + 12) !== '200') return void socket.destroy(new Error(`status ${text.slice(at + 9, at + 12)}`));
        answered++;
        scanned = at + 12;
      }
      // A status line cut by the chunk's end is at most 11 characters of it; nothing counted is kept.
      tail = text.slice(Math.max(scanned, text.length - 11));
      if (answered >= total) socket.end();
    });
  });
}
