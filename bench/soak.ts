// npm run soak -- --minutes N [--concurrency C]: the real appliance (src/main.ts) on a temp data
// directory with the sample site live, under mixed traffic on 127.0.0.1 for N minutes: site pages,
// feedback posts, analytics paging, export jobs and bundle downloads. Every ~15 s and at the end it
// prints throughput, p99 per route, errors, the server's RSS, open file descriptors and data-dir
// disk use; at the end, the RSS slope after warm-up (MB/min). Not part of CI.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnAppliance } from '../test/helpers/spawnAppliance.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '8' },
    'report-seconds': { type: 'string', default: '15' },
  },
});
const minutes = Number(values.minutes);
const concurrency = Number(values.concurrency);
const reportMs = Number(values['report-seconds']) * 1000;
if (!(minutes > 0) || !(concurrency > 0)) throw new Error('usage: npm run soak -- --minutes N [--concurrency C]');

type Route = 'site page' | 'site asset' | 'feedback post' | 'analytics page' | 'export job' | 'bundle link' | 'bundle download';

/** Latencies and errors per route, for one reporting interval and for the whole run. */
class RouteStats {
  readonly latencies = new Map<Route, number[]>();
  readonly errors = new Map<Route, number>();
  readonly errorSamples: string[] = [];
  record(route: Route, ms: number, error?: string): void {
    const list = this.latencies.get(route) ?? [];
    list.push(ms);
    this.latencies.set(route, list);
    if (error) {
      this.errors.set(route, (this.errors.get(route) ?? 0) + 1);
      if (this.errorSamples.length < 20) this.errorSamples.push(`${route}: ${error}`);
    }
  }
  count(): number {
    let n = 0;
    for (const list of this.latencies.values()) n += list.length;
    return n;
  }
  errorCount(): number {
    let n = 0;
    for (const e of this.errors.values()) n += e;
    return n;
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Resident set size of a process, MB (Linux /proc). */
function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Bytes under `dir` (bounded walk; files vanishing mid-walk are skipped). */
function diskBytes(dir: string): number {
  let total = 0;
  const stack = [dir];
  for (let guard = 0; stack.length > 0 && guard < 1_000_000; guard++) {
    const current = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const path = join(current, e.name);
      if (e.isDirectory()) stack.push(path);
      else {
        try {
          total += statSync(path).size;
        } catch {
          // removed by retention or an export while we walked
        }
      }
    }
  }
  return total;
}

/** Least-squares slope of y over x. */
function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const dataDir = await mkdtemp(join(tmpdir(), 'enclave-soak-'));
const server = await spawnAppliance(
  {
    ENCLAVE_DATA_DIR: dataDir,
    ENCLAVE_LOG_LEVEL: 'warn',
    // One client address sends everything here, and the per-address limits are per minute/hour.
    ENCLAVE_FEEDBACK__PER_CLIENT_PER_MINUTE: '100000000',
    ENCLAVE_ANALYTICS__REQUESTS_PER_HOUR: '100000000',
  },
  120_000,
);
const pid = server.child.pid!;
const key = /ENCLAVE_ADMIN_KEY=(\S+)/.exec(server.stdout())![1];
const projectId = /ENCLAVE_PROJECT_ID=(\S+)/.exec(server.stdout())![1];
const base = server.url;
const auth = { Authorization: `Bearer ${key}` };
let stopping = false;
const cleanup = () => {
  server.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

// The sample site goes live a few seconds after first start.
const liveBy = Date.now() + 120_000;
while (
  Date.now() < liveBy &&
  (await fetch(`${base}/`)
    .then((r) => {
      void r.body?.cancel();
      return r.status;
    })
    .catch(() => 0)) !== 200
)
  await new Promise((r) => setTimeout(r, 250));
const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
const pages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1], base).pathname).filter((p) => p.startsWith('/'));
if (pages.length === 0) pages.push('/');
const home = await (await fetch(`${base}/`)).text();
const assets = [...new Set([...home.matchAll(/(?:href|src)="([^"]+\.(?:css|js))"/g)].map((m) => new URL(m[1], `${base}/`).pathname))];
const domain =
  (JSON.parse(readFileSync(join(dataDir, 'control.json'), 'utf8')) as { sites: { domain: string }[] }).sites[0]?.domain ??
  'sample.enclave.internal';
console.log(
  `soak: ${minutes} min, ${concurrency} clients, server pid ${pid} at ${base}, data ${dataDir}; ${pages.length} pages, ${assets.length} assets`,
);

const total = new RouteStats();
let interval = new RouteStats();
const record = (route: Route, ms: number, error?: string) => {
  total.record(route, ms, error);
  interval.record(route, ms, error);
};

/** Times one request; a status outside `ok` (or a network error) counts as an error. */
async function timed(route: Route, ok: number[], run: () => Promise<Response>): Promise<Response | null> {
  const started = performance.now();
  try {
    const res = await run();
    const body = Buffer.from(await res.arrayBuffer());
    const ms = performance.now() - started;
    record(route, ms, ok.includes(res.status) ? undefined : `${res.status} ${body.toString('utf8', 0, 120)}`);
    return Object.assign(res, { bytes: body });
  } catch (err) {
    record(route, performance.now() - started, (err as Error).message);
    return null;
  }
}

const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];

async function readerClient(): Promise<void> {
  for (let i = 0; !stopping && i < 10_000_000; i++) {
    const roll = Math.random();
    if (roll < 0.6) await timed('site page', [200], () => fetch(`${base}${pick(pages)}`, { headers: { 'Accept-Encoding': 'gzip' } }));
    else if (roll < 0.75 && assets.length)
      await timed('site asset', [200], () => fetch(`${base}${pick(assets)}`, { headers: { 'Accept-Encoding': 'br' } }));
    else if (roll < 0.92) {
      const helpful = Math.random() < 0.5;
      await timed('feedback post', [201], () =>
        fetch(`${base}/_enclave/feedback`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            source: 'contextual',
            path: pick(pages),
            helpful,
            comment: helpful ? undefined : `soak ${i} ${'z'.repeat(i % 300)}`,
          }),
        }),
      );
    } else {
      let cursor: string | null = null;
      for (let page = 0; page < 3; page++) {
        const url: string = `${base}/v1/analytics/${projectId}/feedback?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = (await timed('analytics page', [200], () => fetch(url, { headers: auth }))) as (Response & { bytes?: Buffer }) | null;
        if (!res?.bytes || res.status !== 200) break;
        cursor = (JSON.parse(res.bytes.toString('utf8')) as { nextCursor: string | null }).nextCursor;
        if (!cursor) break;
      }
    }
  }
}

let exportsDone = 0;
async function exportClient(): Promise<void> {
  for (let i = 0; !stopping && i < 100_000; i++) {
    const started = (await timed('export job', [202, 409], () =>
      fetch(`${base}/v1/static-export/jobs`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ domain }),
      }),
    )) as (Response & { bytes?: Buffer }) | null;
    if (!started?.bytes) continue;
    const job = JSON.parse(started.bytes.toString('utf8')) as { jobId: string };
    let status = '';
    for (let polls = 0; polls < 1200 && !['completed', 'failed'].includes(status); polls++) {
      await new Promise((r) => setTimeout(r, 250));
      const res = await fetch(`${base}/v1/static-export/jobs/${job.jobId}`, { headers: auth }).catch(() => null);
      status = res ? ((await res.json()) as { status: string }).status : '';
    }
    if (status !== 'completed') {
      record('export job', 0, `job ${job.jobId} ended ${status || 'unknown'}`);
      continue;
    }
    const link = (await timed('bundle link', [200], () =>
      fetch(`${base}/v1/static-export/jobs/${job.jobId}/bundle`, { method: 'POST', headers: auth }),
    )) as (Response & { bytes?: Buffer }) | null;
    if (!link?.bytes) continue;
    const { bundleUrl, sha256 } = JSON.parse(link.bytes.toString('utf8')) as { bundleUrl: string; sha256: string };
    const zip = (await timed('bundle download', [200], () => fetch(bundleUrl))) as (Response & { bytes?: Buffer }) | null;
    if (zip?.bytes && createHash('sha256').update(zip.bytes).digest('hex') !== sha256) record('bundle download', 0, 'sha256 mismatch');
    exportsDone++;
  }
}

const startedAt = Date.now();
const samples: { atMin: number; rssMb: number; fds: number; diskMb: number }[] = [];
const sample = () => {
  const s = { atMin: (Date.now() - startedAt) / 60_000, rssMb: rssMb(pid), fds: openFds(pid), diskMb: diskBytes(dataDir) / 1024 / 1024 };
  samples.push(s);
  return s;
};
sample();

const ROUTES: Route[] = ['site page', 'site asset', 'feedback post', 'analytics page', 'export job', 'bundle link', 'bundle download'];
function routeTable(stats: RouteStats, seconds: number): string {
  const rows = ROUTES.filter((r) => stats.latencies.has(r)).map((route) => {
    const sorted = [...stats.latencies.get(route)!].sort((a, b) => a - b);
    return `  ${route.padEnd(16)} ${String(sorted.length).padStart(8)} ${(sorted.length / seconds).toFixed(1).padStart(8)}/s  p50 ${percentile(sorted, 50).toFixed(1).padStart(7)} ms  p99 ${percentile(sorted, 99).toFixed(1).padStart(7)} ms  max ${sorted.at(-1)!.toFixed(0).padStart(6)} ms  errors ${stats.errors.get(route) ?? 0}`;
  });
  return rows.join('\n');
}

const reporter = setInterval(() => {
  const s = sample();
  const seconds = reportMs / 1000;
  console.log(
    `\n[${(s.atMin * 60).toFixed(0)} s] ${(interval.count() / seconds).toFixed(0)} req/s, errors ${interval.errorCount()}, RSS ${s.rssMb.toFixed(1)} MB, fds ${s.fds}, data ${s.diskMb.toFixed(1)} MB, exports ${exportsDone}`,
  );
  console.log(routeTable(interval, seconds));
  interval = new RouteStats();
}, reportMs);

const clients = [...Array.from({ length: concurrency }, () => readerClient()), exportClient()];
await new Promise((r) => setTimeout(r, minutes * 60_000));
stopping = true;
await Promise.all(clients);
clearInterval(reporter);
const last = sample();
const elapsed = (Date.now() - startedAt) / 1000;

// Warm-up: the first third of the run, or the first minute, whichever is shorter.
const warmMin = Math.min(1, minutes / 3);
const steady = samples.filter((s) => s.atMin >= warmMin).map((s) => ({ x: s.atMin, y: s.rssMb }));
const rssSlope = slope(steady);
console.log(`\n=== soak summary: ${elapsed.toFixed(0)} s, ${concurrency} clients + 1 export client ===`);
console.log(
  `requests ${total.count()} (${(total.count() / elapsed).toFixed(0)} req/s), errors ${total.errorCount()}, exports completed and downloaded ${exportsDone}`,
);
console.log(routeTable(total, elapsed));
console.log(`RSS MB over time: ${samples.map((s) => `${(s.atMin * 60).toFixed(0)}s=${s.rssMb.toFixed(0)}`).join(' ')}`);
console.log(
  `RSS slope after ${(warmMin * 60).toFixed(0)} s warm-up: ${rssSlope.toFixed(2)} MB/min (${steady.length} samples); peak ${Math.max(...samples.map((s) => s.rssMb)).toFixed(1)} MB`,
);
console.log(`open fds: start ${samples[0].fds}, end ${last.fds}, max ${Math.max(...samples.map((s) => s.fds))}`);
console.log(`data dir: start ${samples[0].diskMb.toFixed(1)} MB, end ${last.diskMb.toFixed(1)} MB`);
if (total.errorSamples.length) console.log(`error samples:\n  ${total.errorSamples.join('\n  ')}`);
server.child.kill('SIGTERM');
const code = await Promise.race([server.exited, new Promise((r) => setTimeout(() => r('timeout'), 20_000))]);
console.log(`server exit after SIGTERM: ${code}`);
cleanup();
process.exit(total.errorCount() > 0 ? 1 : 0);
