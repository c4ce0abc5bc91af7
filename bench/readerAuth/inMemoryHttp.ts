import type { Server } from 'node:http';
import { Duplex } from 'node:stream';

/** Requests handed to the server at a time: each batch once the previous one was answered. */
const BATCH = 10;

/**
 * CPU µs per request of `server` answering `count` copies of the raw HTTP request `request`
 * (which must be answered 200) on one keep-alive connection that lives in memory: a Duplex
 * handed to the server as a socket. Node's HTTP parser, the app's fast path, the site handler
 * and the response's serialisation are all in the figure; the kernel's socket work and a load
 * generator are not, so it hardly moves with the machine's load (bench:reader-auth).
 */
export async function inMemoryHttp(server: Server, request: Buffer, count: number): Promise<number> {
  const batch = Buffer.concat(Array.from({ length: BATCH }, () => request));
  const before = process.cpuUsage();
  await new Promise<void>((done, fail) => {
    let answered = 0;
    let fed = 0;
    let tail = '';
    const feed = () => {
      const n = Math.min(BATCH, count - fed);
      fed += n;
      socket.push(n === BATCH ? batch : Buffer.concat(Array.from({ length: n }, () => request)));
    };
    const take = (text: string) => {
      const all = tail + text;
      let scanned = 0;
      for (let at = all.indexOf('HTTP/1.1 '); at >= 0 && at + 12 <= all.length; at = all.indexOf('HTTP/1.1 ', scanned)) {
        if (all.slice(at + 9, at + 12) !== '200') return fail(new Error(`status ${all.slice(at + 9, at + 12)}`));
        answered++;
        scanned = at + 12;
      }
      tail = all.slice(Math.max(scanned, all.length - 11));
      if (answered >= count) {
        socket.push(null);
        done();
      } else if (answered === fed) feed();
    };
    const text = (chunk: unknown) => (typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('latin1'));
    const socket = new Duplex({
      read() {},
      write(chunk, _encoding, next) {
        next();
        take(text(chunk));
      },
      writev(chunks, next) {
        next();
        take(chunks.map(({ chunk }) => text(chunk)).join(''));
      },
    });
    // What the server and its connection guard read of a socket.
    Object.assign(socket, { remoteAddress: '127.0.0.1', remotePort: 1, setTimeout() {}, setNoDelay() {}, setKeepAlive() {} });
    server.emit('connection', socket);
    feed();
  });
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}
