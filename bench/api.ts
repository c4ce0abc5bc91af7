// npm run bench:api — authenticated GET of a small record vs a bare Koa hello-world, on 127.0.0.1.
// Prints max throughput and latency for both, and latency at a fixed 1,000 requests/s.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printTable, runAutocannon, type LoadResult } from './runAutocannon.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);

async function startChild(
  args: string[],
  env: Record<string, string>,
): Promise<{ url: string; out: () => string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out.length < 10_000 ? (out += c) : undefined));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start: ${err}`)), 30_000);
    child.stderr.on('data', () => {
      const m = /Enclave (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  return {
    url,
    out: () => out,
    stop: () =>
      new Promise<void>((r) => {
        child.on('exit', () => r());
        child.kill('SIGTERM');
      }),
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'enclave-bench-api-'));
const enclave = await startChild(['src/main.ts'], { ENCLAVE_DATA_DIR: dataDir, ENCLAVE_PORT: '0', ENCLAVE_LOG_LEVEL: 'info' });
const key = /ENCLAVE_ADMIN_KEY=(\S+)/.exec(enclave.out())![1];
const projectId = /ENCLAVE_PROJECT_ID=(\S+)/.exec(enclave.out())![1];
const peer = await startChild(['bench/fixtures/helloKoa.ts'], {});
const headers = { Authorization: `Bearer ${key}` };
const enclaveUrl = `${enclave.url}/v1/projects/${projectId}`;

// Warm both up so JIT and connection setup don't count.
await runAutocannon({ url: enclaveUrl, seconds: 2, headers });
await runAutocannon({ url: peer.url, seconds: 2 });

const rows: [string, LoadResult][] = [];
rows.push(['enclave GET /v1/projects/:id (max)', await runAutocannon({ url: enclaveUrl, seconds, headers })]);
rows.push(['koa hello-world (max)', await runAutocannon({ url: peer.url, seconds })]);
rows.push(['enclave @ 1,000 req/s', await runAutocannon({ url: enclaveUrl, seconds, headers, rate: 1000 })]);
rows.push(['koa hello-world @ 1,000 req/s', await runAutocannon({ url: peer.url, seconds, rate: 1000 })]);

await enclave.stop();
await peer.stop();
rmSync(dataDir, { recursive: true, force: true });

console.log(`\nbench:api — ${seconds}s per run, 10 connections, 127.0.0.1, node ${process.version}\n`);
printTable(
  ['run', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx'],
  rows.map(([name, r]) => [name, Math.round(r.rps), r.p50, r.p99, r.errors, r.non2xx]),
);
const ratio = rows[0][1].rps / rows[1][1].rps;
console.log(
  `\nthroughput ratio enclave/koa: ${ratio.toFixed(2)}  (target: p99 < 10 ms at 1,000 req/s → ${rows[2][1].p99 < 10 ? 'met' : 'NOT met'})`,
);
