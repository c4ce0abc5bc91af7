import test from 'ava';
import { connect, type Socket } from 'node:net';
import { startTestAppliance } from '../helpers/testAppliance.js';

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
}

/** Resolves with what the server sent before it closed the socket, and how long that took. */
function untilClosed(socket: Socket): Promise<{ data: string; ms: number }> {
  const started = Date.now();
  let data = '';
  socket.setEncoding('utf8').on('data', (c: string) => (data += c));
  return new Promise((resolve) => socket.on('close', () => resolve({ data, ms: Date.now() - started })));
}

test('a client trickling its headers is cut off at the header deadline', async (t) => {
  const app = await startTestAppliance({ overrides: { server: { headersTimeoutMs: 1500, requestTimeoutMs: 3000 } } });
  t.teardown(() => app.close());
  const socket = await openSocket(app.port);
  const closed = untilClosed(socket);
  socket.write('GET /_enclave/health HTTP/1.1\r\nHost: x\r\n');
  const trickle = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 300);
  const { data, ms } = await closed;
  clearInterval(trickle);
  t.true(ms < 6000, `closed after ${ms} ms`);
  t.regex(data, /^HTTP\/1\.1 408|^$/, 'a 408 or a bare close');
});

test('a client trickling its body is cut off at the request deadline', async (t) => {
  const app = await startTestAppliance({ overrides: { server: { headersTimeoutMs: 1500, requestTimeoutMs: 2500 } } });
  t.teardown(() => app.close());
  const socket = await openSocket(app.port);
  const closed = untilClosed(socket);
  socket.write(`PATCH /v1/projects/${app.projectId} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`);
  const trickle = setInterval(() => socket.writable && socket.write(' '), 300);
  const { ms } = await closed;
  clearInterval(trickle);
  t.true(ms < 7000, `closed after ${ms} ms`);
  t.is(app.control.projects.find(app.projectId)!.name, 'Default project', 'nothing half-written was applied');
});

test('hundreds of idle connections do not stop the server answering, and are reaped', async (t) => {
  const app = await startTestAppliance({ overrides: { server: { headersTimeoutMs: 1500, requestTimeoutMs: 3000, keepAliveTimeoutMs: 1000 } } });
  t.teardown(() => app.close());
  const idle = await Promise.all(Array.from({ length: 300 }, () => openSocket(app.port)));
  const closes = idle.map((s) => untilClosed(s));
  const started = Date.now();
  const res = await fetch(`${app.url}/_enclave/health`);
  t.is(res.status, 200);
  t.true(Date.now() - started < 1000, 'answered promptly while 300 idle sockets are open');
  const results = await Promise.all(closes);
  t.true(results.every((r) => r.ms < 8000), 'every idle socket was closed by the server');
});
