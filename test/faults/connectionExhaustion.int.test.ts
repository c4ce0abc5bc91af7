import test from 'ava';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConnectionGuard } from '../../src/http/ConnectionGuard.js';
import { connect, type Socket } from 'node:net';
import { startTestAppliance } from '../helpers/testAppliance.js';

/** A socket to 127.0.0.1:`port` from the loopback address `from` (a second client address without a network). */
function openFrom(from: string, port: number): Promise<Socket | null> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: from }, () => resolve(socket));
    socket.on('error', () => resolve(null));
  });
}

/** Sends one keep-alive request and resolves once the answer has started: the socket is then idle. */
function useOnce(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    socket.once('data', () => resolve());
    socket.once('close', () => resolve());
    socket.write('GET /_enclave/health HTTP/1.1\r\nHost: x\r\n\r\n');
  });
}

/** A health probe on a new connection from 127.0.0.1, as a load balancer sends it; resolves with the status or the error. */
function probe(port: number, path = '/_enclave/health'): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { Connection: 'close' }, timeout: 3000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve((err as NodeJS.ErrnoException).code ?? err.message));
    req.end();
  });
}

const tally = (results: (number | string)[]) =>
  Object.fromEntries([...new Set(results)].map((r) => [r, results.filter((x) => x === r).length]));
const settle = () => new Promise((r) => setTimeout(r, 300));

test('one address holding 1,030 idle and unfinished sockets is capped per address, and every health probe from another address is answered', async (t) => {
  t.timeout(60_000);
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const { maxConnections, maxConnectionsPerAddress } = app.config.server;
  const held: Socket[] = [];
  t.teardown(() => {
    for (const s of held) s.destroy();
  });
  for (let i = 0; i < 1030; i++) {
    const socket = await openFrom('127.0.0.2', app.port);
    if (!socket) continue;
    socket.on('error', () => {});
    held.push(socket);
    // Half idle keep-alive (one request, then silence), half never finishing their headers.
    if (i % 2 === 0) await useOnce(socket);
    else socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
  }
  await settle();
  const open = held.filter((s) => !s.destroyed && !s.readableEnded).length;
  t.true(open <= maxConnectionsPerAddress, `the address holds ${open} sockets (cap ${maxConnectionsPerAddress})`);
  const results: (number | string)[] = [];
  for (let i = 0; i < 100; i++) results.push(await probe(app.port, i % 2 ? '/_enclave/ready' : '/_enclave/health'));
  t.deepEqual(tally(results), { 200: 100 }, 'every probe answered 200');
  t.log(
    `1,030 sockets from 127.0.0.2 (global cap ${maxConnections}, per address ${maxConnectionsPerAddress}): ${open} held open; probes from 127.0.0.1: ${JSON.stringify(tally(results))}`,
  );
});

test('at the global cap idle keep-alive sockets are shed first, and probes still get through when every other slot holds a request in progress', async (t) => {
  t.timeout(60_000);
  const app = await startTestAppliance({ overrides: { server: { maxConnections: 64, maxConnectionsPerAddress: 16 } } });
  t.teardown(() => app.close());
  const slowBodies: Socket[] = [];
  const idle: Socket[] = [];
  t.teardown(() => {
    for (const s of [...slowBodies, ...idle]) s.destroy();
  });
  // Eight addresses: 5 requests each whose bodies never finish (40 busy slots), then 9 idle
  // keep-alive sockets each, 112 sockets in all for 56 ordinary slots and 8 reserved ones.
  for (let a = 2; a <= 9; a++) {
    for (let i = 0; i < 5; i++) {
      const socket = await openFrom(`127.0.0.${a}`, app.port);
      if (!socket) continue;
      socket.on('error', () => {});
      socket.write('POST /_enclave/feedback HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      slowBodies.push(socket);
      await new Promise((r) => setTimeout(r, 30));
    }
  }
  await settle();
  const busy = slowBodies.filter((s) => !s.destroyed && !s.readableEnded);
  for (let a = 2; a <= 9; a++) {
    for (let i = 0; i < 9; i++) {
      const socket = await openFrom(`127.0.0.${a}`, app.port);
      if (!socket) continue;
      socket.on('error', () => {});
      idle.push(socket);
      await useOnce(socket);
    }
  }
  await settle();
  const results: (number | string)[] = [];
  for (let i = 0; i < 60; i++) results.push(await probe(app.port));
  await settle();
  t.deepEqual(tally(results), { 200: 60 }, 'every probe answered 200');
  const busyStillOpen = busy.filter((s) => !s.destroyed && !s.readableEnded).length;
  t.is(busyStillOpen, busy.length, 'no request in progress was cut to make room');
  const idleOpen = idle.filter((s) => !s.destroyed && !s.readableEnded).length;
  t.true(idleOpen < idle.length, 'idle keep-alive sockets were shed');
  t.log(
    `cap 64 (16 per address): ${busy.length} requests in progress kept, ${idle.length - idleOpen} of ${idle.length} idle sockets shed; probes: ${JSON.stringify(tally(results))}`,
  );
});

test('a flood of new connections cannot shed a probe before its request arrives: new sockets get a grace before they may be closed', async (t) => {
  let clock = 0;
  const server = createServer();
  const guard = new ConnectionGuard({ maxConnections: 16, maxConnectionsPerAddress: 16 }, () => clock);
  // `/slow` never gets an answer: its socket stays busy with a request in progress.
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
  // Every ordinary slot (16 minus 2 reserved) holds a request in progress.
  for (let i = 0; i < 14; i++) {
    const socket = (await openFrom(`127.0.0.${2 + (i % 7)}`, port))!;
    socket.on('error', () => {});
    socket.write('POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n');
    sockets.push(socket);
  }
  await settle();
  // A probe connects (a reserved slot) and, before its request is read, another client connects.
  const probeSocket = (await openFrom('127.0.0.1', port))!;
  sockets.push(probeSocket);
  let probeAnswer = '';
  probeSocket.setEncoding('utf8').on('data', (c: string) => (probeAnswer += c));
  const probeClosed = new Promise<void>((resolve) => {
    probeSocket.on('close', () => resolve());
    probeSocket.on('error', () => resolve());
  });
  await settle();
  const flood = (await openFrom('127.0.0.9', port))!;
  flood.on('error', () => {});
  flood.resume(); // read, so the server's close is seen
  sockets.push(flood);
  await settle();
  if (!probeSocket.destroyed) probeSocket.write('GET /_enclave/health HTTP/1.1\r\nHost: x\r\n\r\n');
  await probeClosed;
  t.regex(probeAnswer, /^HTTP\/1\.1 200/, 'the probe was answered');

  // Once the grace is over, a socket that never sent a request is what gets shed.
  clock += 1000;
  const late = (await openFrom('127.0.0.1', port))!;
  sockets.push(late);
  await settle();
  t.true(flood.destroyed || flood.readableEnded, 'the silent socket was shed for the newcomer');
});
