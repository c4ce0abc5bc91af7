import { Agent, request } from 'node:http';
import type { LoadResult } from './runAutocannon.js';

const TIMEOUT_MS = 10_000;

/**
 * Offers requests at a steady rate, open loop: request i is due at start + i / rate, and is
 * sent then whether or not earlier ones have answered. Latency runs from when a request was
 * due, not when it went out, so a server (or client) that falls behind is charged for the
 * wait it caused. p50/p99 are exact, over the real responses only.
 *
 * Why not autocannon's `overallRate`: it gives each connection a per-second quota that the
 * connection fires back to back at the top of every second (500/s on 10 connections is ten
 * closed loops of 50, i.e. a burst), and its coordinated-omission fix assumes a 1 ms interval
 * between requests, so one 60 ms answer is also recorded as 59 made-up ones (59, 58, … 1 ms).
 * Neither is "a steady 500 requests/s".
 */
export async function runSteadyLoad(options: {
  url: string;
  seconds: number;
  rate: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  /** Bodies sent in turn (request i sends bodies[i % n]), instead of `body`: e.g. many different queries. */
  bodies?: string[];
}): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:/.test(options.url)) throw new Error('load tests only target 127.0.0.1');
  const target = new URL(options.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const bodies = (options.bodies ?? (options.body === undefined ? [] : [options.body])).map((b) => Buffer.from(b));
  const headersFor = (body: Buffer | undefined) => ({ ...options.headers, ...(body ? { 'Content-Length': String(body.length) } : {}) });
  const total = Math.round(options.seconds * options.rate);
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let settled = 0;
  const start = performance.now() + 20;

  await new Promise<void>((resolve) => {
    const done = () => {
      settled += 1;
      if (settled === total) resolve();
    };
    const send = (due: number, i: number) => {
      const body = bodies.length > 0 ? bodies[i % bodies.length] : undefined;
      const headers = headersFor(body);
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          method: options.method ?? 'GET',
          headers,
          agent,
          timeout: TIMEOUT_MS,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode! >= 200 && res.statusCode! < 300) latencies.push(performance.now() - due);
            else non2xx += 1;
            done();
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', () => {
        errors += 1;
        done();
      });
      req.end(body);
    };
    let sent = 0;
    // Timers fire late by a millisecond or more; each wake sends everything due by then.
    const tick = () => {
      const now = performance.now();
      for (; sent < total && start + (sent * 1000) / options.rate <= now; sent++) send(start + (sent * 1000) / options.rate, sent);
      if (sent < total) setTimeout(tick, Math.max(0, start + (sent * 1000) / options.rate - performance.now()));
    };
    setTimeout(tick, 20);
  });
  agent.destroy();

  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] * 10) / 10 : NaN;
  const elapsedS = (performance.now() - start) / 1000;
  return {
    rps: latencies.length / Math.max(elapsedS, options.seconds),
    p50: at(0.5),
    p99: at(0.99),
    errors,
    non2xx,
    answered: latencies.length + non2xx,
  };
}
