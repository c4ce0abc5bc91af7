import test from 'ava';
import { randomBytes } from 'node:crypto';
import { createServer, request } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ConnectionGuard } from '../../src/http/ConnectionGuard.js';
import { deployAndWait } from '../deploy/helpers/loggedAppliance.js';
import { makeSiteFiles, writeBundle } from '../deploy/helpers/testBundles.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';

/** Larger than loopback's socket buffers (a few MiB), so a reader that stops reading leaves bytes waiting on the server. */
const ASSET_BYTES = 12 * 1024 * 1024;

/** A socket to 127.0.0.1:`port` from the loopback address `from`; null when refused. */
function openFrom(from: string, port: number): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: from }, () => resolve(socket));
    socket.on('error', () => resolve(null));
  });
}

/** Asks for `path` and stops reading once the first bytes arrived: the slowest reader there is. Resolves when it has them. */
function readThenStall(socket: Socket, path: string): Promise<void> {
  return new Promise((resolve) => {
    socket.once('data', () => {
      socket.pause();
      resolve();
    });
    socket.once('close', () => resolve());
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  });
}

/** One request on a new connection from 127.0.0.1: its status, or the error code. */
function fetchOnce(port: number, path: string, headers: Record<string, string> = {}): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path, agent: false, headers: { Connection: 'close', ...headers }, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve('ABORTED'));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve((err as NodeJS.ErrnoException).code ?? err.message));
    req.end();
  });
}

const tally = (results: (number | string)[]) =>
  Object.fromEntries([...new Set(results)].map((r) => [r, results.filter((x) => x === r).length]));

test('slow readers of a large asset hold every ordinary slot: other readers and the admin API are still answered, and readiness counts the stalled readers', async (t) => {
  t.timeout(120_000);
  const dir = await makeTempDir('enclave-slow-');
  const zip = join(dir, 'big.zip');
  await writeBundle(zip, 'big-1', { files: makeSiteFiles('big-1', { '_assets/big.bin': randomBytes(ASSET_BYTES) }) });
  // 24 sockets (3 reserved for the probes), at most 7 per address. The stall timeout is long, so
  // only shedding for other addresses can make room here; it sheds a reader stalled for 2 s.
  const app = await startTestAppliance({
    overrides: { server: { maxConnections: 24, maxConnectionsPerAddress: 7, sendStallTimeoutMs: 600_000 } },
  });
  t.teardown(() => app.close());
  t.is((await deployAndWait(app, { bundleUrl: zip })).status, 'active');

  const slow: Socket[] = [];
  t.teardown(() => {
    for (const s of slow) s.destroy();
  });
  // Three addresses × 7 slow readers = 21 sockets, every ordinary slot, each with a response in progress.
  for (const from of ['127.0.0.2', '127.0.0.3', '127.0.0.4']) {
    for (let i = 0; i < 7; i++) {
      const socket = await openFrom(from, app.port);
      if (!socket) continue;
      socket.on('error', () => {});
      slow.push(socket);
      await readThenStall(socket, '/_assets/big.bin');
    }
    if (from !== '127.0.0.2') continue;
    // Sockets busy sending count against their address's cap: an eighth from .2 (the listener
    // still has room) is closed on arrival — it never gets an answer, not even to a probe.
    const eighth = await openFrom(from, app.port);
    if (eighth) {
      let answer = '';
      eighth.on('error', () => {});
      eighth.setEncoding('utf8').on('data', (c: string) => (answer += c));
      eighth.write('GET /_enclave/health HTTP/1.1\r\nHost: x\r\n\r\n');
      await waitUntil('the eighth socket of 127.0.0.2 to be closed', async () => eighth.destroyed || eighth.readableEnded, 10_000);
      t.is(answer, '', 'closed on arrival by the per-address cap');
    }
  }
  t.is(slow.filter((s) => !s.destroyed).length, 21, 'all slow readers admitted');

  // The readers stall once the kernel buffers are full; the readiness probe says so.
  await waitUntil(
    'the slow readers to stall',
    async () => {
      const ready = (await (await fetch(`${app.url}/_enclave/ready`, { headers: { Connection: 'close' } })).json()) as {
        modules: { connections?: { stalled?: number } };
      };
      return (ready.modules.connections?.stalled ?? 0) >= 18;
    },
    30_000,
  );

  // Other readers: site pages and the admin API, each on a new connection from 127.0.0.1.
  const results: (number | string)[] = [];
  for (let i = 0; i < 20; i++) {
    results.push(await fetchOnce(app.port, i % 2 ? '/guides/start' : '/v1/keys', i % 2 ? {} : { Authorization: `Bearer ${app.key}` }));
  }
  t.deepEqual(tally(results), { 200: 20 }, 'every reader and admin call answered');
  const ready = (await (await fetch(`${app.url}/_enclave/ready`, { headers: { Connection: 'close' } })).json()) as {
    modules: { connections: { cutSlowReaders: number } };
  };
  const cut = ready.modules.connections.cutSlowReaders;
  t.true(cut >= 1, `stalled readers were cut to make room (${cut})`);
  t.log(
    `21 slow readers from 3 addresses, cap 24 (7 per address): 20/20 answered from 127.0.0.1 (${JSON.stringify(tally(results))}); ${cut} slow sockets closed`,
  );
});

test('every ordinary slot busy: health answers 503 overloaded and readiness lists the connections as degraded', async (t) => {
  t.timeout(60_000);
  const app = await startTestAppliance({ overrides: { server: { maxConnections: 16, maxConnectionsPerAddress: 16 } } });
  t.teardown(() => app.close());
  const busy: Socket[] = [];
  t.teardown(() => {
    for (const s of busy) s.destroy();
  });
  t.is((await fetch(`${app.url}/_enclave/health`)).status, 200, 'green before');
  // 14 ordinary slots (2 reserved), each holding a request whose body never finishes.
  for (let i = 0; i < 14; i++) {
    const socket = (await openFrom(`127.0.0.${2 + (i % 7)}`, app.port))!;
    socket.on('error', () => {});
    socket.write('POST /_enclave/feedback HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
    busy.push(socket);
  }
  // A reader now finds no slot (the reserved slice answers only probes).
  t.is(await fetchOnce(app.port, '/guides/start'), 503);
  const health = await fetch(`${app.url}/_enclave/health`, { headers: { Connection: 'close' } });
  t.is(health.status, 503, 'health is not green while readers are refused');
  const body = await health.json();
  t.like(body, { status: 'overloaded', connections: { ordinarySlots: 14 } });
  t.regex(body.detail, /found every slot taken/);
  const ready = await fetch(`${app.url}/_enclave/ready`, { headers: { Connection: 'close' } });
  t.is(ready.status, 200);
  t.like(await ready.json(), { status: 'degraded', modules: { connections: { status: 'degraded' } } });
});

test('minimum send rate: a reader that takes no bytes for sendStallMs is cut; one that keeps reading is not (injected clock)', async (t) => {
  let clock = 0;
  const server = createServer();
  const guard = new ConnectionGuard({ maxConnections: 16, maxConnectionsPerAddress: 16, sendStallMs: 10_000 }, () => clock);
  const chunk = Buffer.alloc(64 * 1024, 120);
  server.on(
    'request',
    guard.attach(server, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      // An endless body in chunks, with backpressure, like a file stream.
      Readable.from(
        (function* () {
          for (;;) yield chunk;
        })(),
      ).pipe(res);
    }),
  );
  const serverSockets: Socket[] = [];
  server.on('connection', (s: Socket) => serverSockets.push(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const port = (server.address() as AddressInfo).port;
  const stalled = (await openFrom('127.0.0.2', port))!;
  const steady = (await openFrom('127.0.0.3', port))!;
  t.teardown(() => {
    stalled.destroy();
    steady.destroy();
  });
  for (const s of [stalled, steady]) s.on('error', () => {});
  await readThenStall(stalled, '/');
  await readThenStall(steady, '/');
  await waitUntil('both server sockets', async () => serverSockets.length === 2, 5000);
  const [stalledSide, steadySide] = serverSockets.sort((a, b) =>
    a.remotePort === stalled.localPort ? -1 : b.remotePort === stalled.localPort ? 1 : 0,
  );
  const taken = (s: Socket) =>
    `${s.bytesWritten - s.writableLength}/${(s as unknown as { _handle?: { writeQueueSize?: number } })._handle?.writeQueueSize}`;
  // Wait until the stalled reader's kernel buffers are full: nothing moves on the server any more.
  let last = '';
  await waitUntil(
    'the stalled reader to fill its buffers',
    async () => {
      const now = taken(stalledSide);
      const still = now === last;
      last = now;
      await new Promise((r) => setTimeout(r, 100));
      return still;
    },
    30_000,
  );

  /** The steady reader reads until the server sees its bytes taken (the kernel reports progress in steps), then pauses. */
  const readSome = async () => {
    const before = taken(steadySide);
    steady.resume();
    await waitUntil('the server to see the steady reader take bytes', async () => taken(steadySide) !== before, 10_000);
    steady.pause();
  };

  guard.sweep();
  for (let i = 0; i < 4; i++) {
    clock += 4_000;
    await readSome();
    guard.sweep();
  }
  // 16 s on the clock: the stalled reader (no byte taken for more than 10 s) is cut, the steady one is not.
  await waitUntil('the stalled reader to be closed', async () => stalled.destroyed || stalled.readableEnded || stalledSide.destroyed, 5000);
  t.false(steadySide.destroyed, 'a reader that keeps taking bytes stays');
  t.is(guard.budget().cutSlowReaders, 1);
  clock += 9_000;
  await readSome();
  guard.sweep();
  t.false(steadySide.destroyed);
});

test('the budget counts as exhausted for 10 s after a socket last found no ordinary slot (injected clock)', async (t) => {
  let clock = 0;
  const server = createServer();
  const guard = new ConnectionGuard({ maxConnections: 8, maxConnectionsPerAddress: 8 }, () => clock);
  server.on(
    'request',
    guard.attach(server, (req, res) => void (req.url === '/slow' || res.end('ok'))),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const port = (server.address() as AddressInfo).port;
  const sockets: Socket[] = [];
  t.teardown(() => {
    for (const s of sockets) s.destroy();
  });
  t.false(guard.budget().exhausted);
  // 7 ordinary slots (1 reserved), each busy with an unanswered request.
  for (let i = 0; i < 7; i++) {
    const socket = (await openFrom(`127.0.0.${2 + i}`, port))!;
    socket.on('error', () => {});
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    sockets.push(socket);
  }
  await waitUntil('7 busy sockets', async () => guard.budget().open === 7, 5000);
  t.false(guard.budget().exhausted, 'full, but nobody refused yet');
  t.is(await fetchOnce(port, '/'), 503, 'a reader gets the reserved slot, which only answers probes');
  t.true(guard.budget().exhausted);
  clock += 9_999;
  t.true(guard.budget().exhausted);
  clock += 1;
  t.false(guard.budget().exhausted, 'forgotten 10 s later');
});
