// npm run bench:feedback — the feedback store at 1,000,000 entries.
// Generates the segments directly, starts the feedback module in a child process, then measures
// startup, RSS, disk, ingestion at a steady 500 req/s over HTTP, paged queries while ingestion
// runs, the worst event-loop stall, and (for contrast) a plain lowdb JSONFile write at 100k.
// BENCH_ENTRIES and BENCH_SECONDS shrink it for a quick run. Loads are steady and open loop
// (runSteadyLoad); BENCH_LOAD=autocannon replays the earlier autocannon per-second bursts.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeSync, closeSync, fdatasyncSync, fsyncSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { JSONFile } from 'lowdb/node';
import { Low } from 'lowdb';
import { bootstrapDataDir, prepareDataDir } from '../src/app/bootstrap/bootstrapDataDir.js';
import { systemClock } from '../src/platform/Clock.js';
import { FeedbackCursor, hashFeedbackFilter } from '../src/features/feedback/FeedbackCursor.js';
import { FEEDBACK_SOURCES, type FeedbackSubmission } from '../src/features/feedback/FeedbackEntry.js';
import { openControlStore } from '../src/features/control/ControlStore.js';
import { entryRecordLine, statusRecordLine } from '../src/features/feedback/log/feedbackRecord.js';
import { printTable, runAutocannon, type LoadResult } from './runAutocannon.js';
import { runSteadyLoad } from './runSteadyLoad.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const INGEST_RATE = 500;
const QUERY_RATE = 40; // per query kind, alongside ingestion
const LOWDB_RECORDS = 100_000;
const BURSTS = process.env.BENCH_LOAD === 'autocannon';
/** Timer period of the stall monitor: each sample is this period plus the stall, so keep it small. */
const STALL_RESOLUTION_MS = 1;

/** One measured load at `rate` req/s; `connections` only shapes the autocannon bursts. */
function offer(options: {
  url: string;
  seconds: number;
  rate: number;
  connections?: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
}): Promise<LoadResult> {
  return BURSTS ? runAutocannon(options) : runSteadyLoad(options);
}

/** Child role: the feedback module behind the real app, reporting its own figures on request. */
async function serve(dataDir: string): Promise<void> {
  const { startFeedbackHarness } = await import('../test/feedback/feedbackHarness.js');
  const started = performance.now();
  const cpu = process.cpuUsage();
  const h = await startFeedbackHarness({
    dataDir,
    overrides: {
      analytics: { requestsPerHour: 1e9 },
      feedback: { perClientPerMinute: 1e9, perPagePerMinute: 1e9, globalPerMinute: 1e9 },
      limits: { minFreeBytes: 0 },
    },
  });
  const startupMs = performance.now() - started;
  const startupCpu = process.cpuUsage(cpu);
  const startupCpuMs = (startupCpu.user + startupCpu.system) / 1000;
  const stalls = monitorEventLoopDelay({ resolution: STALL_RESOLUTION_MS });
  stalls.enable();
  let maxRss = process.memoryUsage().rss;
  setInterval(() => (maxRss = Math.max(maxRss, process.memoryUsage().rss)), 250).unref();
  const report = (extra: object) => process.stdout.write(`${JSON.stringify(extra)}\n`);
  report({
    ready: true,
    url: h.url,
    key: h.key,
    projectId: h.projectId,
    startupMs,
    startupCpuMs,
    loadMs: h.module.log.stats.loadMs,
    entries: h.module.log.count(h.projectId),
    rss: process.memoryUsage().rss,
  });
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'reset') {
      stalls.reset();
      maxRss = process.memoryUsage().rss;
      report({ reset: true });
    } else if (line === 'stats') {
      report({
        maxStallMs: stalls.max / 1e6,
        p99StallMs: stalls.percentile(99) / 1e6,
        rss: process.memoryUsage().rss,
        maxRss,
        entries: h.module.log.count(h.projectId),
      });
    }
  }
  await h.close({ keepData: true });
  process.exit(0);
}

const PATHS = ['/', '/guides/start', '/reference/api'];

function submission(i: number): FeedbackSubmission {
  const path = PATHS[i % PATHS.length];
  const kind = i % 20;
  if (kind < 12)
    return {
      source: 'contextual',
      path,
      helpful: i % 3 !== 0,
      ...(i % 4 === 0 ? { comment: `Comment number ${i}: the section about configuration could use an example.` } : {}),
      ...(i % 16 === 0 ? { contact: `reader${i}@example.com` } : {}),
    };
  if (kind < 17)
    return {
      source: 'code_snippet',
      path,
      code: `curl -X POST https://example.test/v1/items/${i} -H 'Content-Type: application/json' -d '{"name":"item ${i}"}'`,
      filename: 'request.sh',
      lang: 'bash',
      comment: 'returns 404 for me',
    };
  if (kind < 19) return { source: 'thumbs_only', path, helpful: i % 2 === 0 };
  return { source: 'agent', path, comment: `agent note ${i}` };
}

/**
 * Writes `count` entries straight into monthly segments (12 months), as the store would have,
 * and makes each durable as the store does: left to the kernel, ~190 MB of dirty pages were
 * flushed ~30 s later, in the middle of the measured loads, and group commits (fdatasync)
 * queued behind that writeback for up to hundreds of ms.
 */
function generate(dataDir: string, projectId: string, count: number): { mid: { createdAtMs: number; id: string }; ms: number } {
  const started = performance.now();
  const dir = join(dataDir, 'feedback', projectId);
  mkdirSync(dir, { recursive: true });
  const start = Date.UTC(2025, 5, 1);
  const span = Date.UTC(2026, 5, 1) - start;
  let mid = { createdAtMs: 0, id: '' };
  let fd = -1;
  let month = '';
  let chunk: string[] = [];
  const flush = () => {
    if (chunk.length) writeSync(fd, chunk.join(''));
    chunk = [];
  };
  const finishSegment = () => {
    flush();
    fsyncSync(fd);
    closeSync(fd);
  };
  for (let i = 0; i < count; i++) {
    const ms = start + Math.floor((i / count) * span);
    const createdAt = new Date(ms).toISOString();
    if (createdAt.slice(0, 7) !== month) {
      if (fd >= 0) finishSegment();
      month = createdAt.slice(0, 7);
      fd = openSync(join(dir, `${month}.jsonl`), 'a');
    }
    const id = `fb_${randomBytes(8).toString('hex')}`;
    chunk.push(entryRecordLine(id, createdAt, submission(i)));
    if (i % 50 === 7) chunk.push(statusRecordLine(id, i % 100 === 7 ? 'resolved' : 'in_progress', createdAt));
    if (i === Math.floor(count / 2)) mid = { createdAtMs: ms, id };
    if (chunk.length >= 20_000) flush();
  }
  finishSegment();
  return { mid, ms: performance.now() - started };
}

function diskBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    total += entry.isDirectory() ? diskBytes(p) : statSync(p).size;
  }
  return total;
}

interface Child {
  send(command: string): Promise<Record<string, unknown>>;
  ready: Record<string, unknown>;
  wallStartupMs: number;
  stop(): Promise<void>;
}

async function startChild(dataDir: string): Promise<Child> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', dataDir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value as string) as Record<string, unknown>;
  const ready = await next();
  return {
    ready,
    wallStartupMs: performance.now() - started,
    async send(command) {
      child.stdin!.write(`${command}\n`);
      return next();
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.on('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

async function lowdbWriteMs(dir: string): Promise<number> {
  const db = new Low<{ feedback: unknown[] }>(new JSONFile(join(dir, 'lowdb-feedback.json')), { feedback: [] });
  for (let i = 0; i < LOWDB_RECORDS; i++)
    db.data.feedback.push({ id: `fb_${i.toString(16).padStart(16, '0')}`, createdAt: new Date().toISOString(), ...submission(i) });
  await db.write();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    db.data.feedback.push({ id: `fb_new${i}`, createdAt: new Date().toISOString(), ...submission(i) });
    await db.write();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[2];
}

/** The disk's own latency for what one group commit does (append ~300 bytes + fdatasync), as a baseline. */
function fdatasyncLatency(dir: string): { p50: number; p99: number } {
  const fd = openSync(join(dir, 'fsync-probe.bin'), 'a');
  const times: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t0 = performance.now();
    writeSync(fd, Buffer.alloc(300, 97));
    fdatasyncSync(fd);
    times.push(performance.now() - t0);
  }
  closeSync(fd);
  times.sort((a, b) => a - b);
  return { p50: times[150], p99: times[296] };
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'enclave-bench-feedback-'));
  try {
    await prepareDataDir(dataDir);
    const control = await openControlStore({ dataDir, sites: [] });
    const boot = await bootstrapDataDir(dataDir, control, systemClock);
    await control.document.flush();
    console.error(`generating ${ENTRIES.toLocaleString('en')} entries…`);
    const gen = generate(dataDir, boot.projectId, ENTRIES);
    const disk = diskBytes(join(dataDir, 'feedback'));
    console.error(`generated in ${(gen.ms / 1000).toFixed(1)} s (${mb(disk)}); starting the server…`);

    const disk0 = fdatasyncLatency(dataDir);
    const loadBefore = loadavg()[0];
    const child = await startChild(dataDir);
    const { url, key } = child.ready as { url: string; key: string };
    const headers = { Authorization: `Bearer ${key}` };
    const base = `${url}/v1/analytics/${boot.projectId}/feedback`;
    const deepCursor = new FeedbackCursor(boot.keyring).encode(gen.mid, hashFeedbackFilter(boot.projectId, {}));
    const post = {
      method: 'POST' as const,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ source: 'contextual', path: '/guides/start', helpful: false, comment: 'bench' }),
    };
    const filtered = `${base}?source=code_snippet&status=resolved,in_progress&dateFrom=2025-09-01&dateTo=2026-03-01T00:00:00Z&limit=50`;

    console.error('warming up…');
    await runAutocannon({ url: `${url}/_enclave/feedback`, seconds: 2, rate: 200, ...post });
    await runAutocannon({ url: base, seconds: 2, rate: 50, headers });

    await child.send('reset');
    console.error(`ingestion alone at ${INGEST_RATE} req/s for ${SECONDS} s…`);
    const ingestAlone = await offer({ url: `${url}/_enclave/feedback`, seconds: SECONDS, rate: INGEST_RATE, ...post });
    console.error(`ingestion at ${INGEST_RATE} req/s with queries at ${QUERY_RATE} req/s each, ${SECONDS} s…`);
    const [ingestMixed, first, deep, filter, byPage] = await Promise.all([
      offer({ url: `${url}/_enclave/feedback`, seconds: SECONDS, rate: INGEST_RATE, ...post }),
      offer({ url: `${base}?limit=50`, seconds: SECONDS, rate: QUERY_RATE, connections: 4, headers }),
      offer({ url: `${base}?limit=50&cursor=${deepCursor}`, seconds: SECONDS, rate: QUERY_RATE, connections: 4, headers }),
      offer({ url: filtered, seconds: SECONDS, rate: QUERY_RATE, connections: 4, headers }),
      offer({ url: `${base}/by-page`, seconds: SECONDS, rate: 5, connections: 2, headers }),
    ]);
    const stats = await child.send('stats');
    await child.stop();

    console.error(`lowdb JSONFile at ${LOWDB_RECORDS.toLocaleString('en')} records…`);
    const lowdbMs = await lowdbWriteMs(dataDir);

    const loads: [string, LoadResult, number][] = [
      [`POST /_enclave/feedback @ ${INGEST_RATE}/s (alone)`, ingestAlone, 20],
      [`POST /_enclave/feedback @ ${INGEST_RATE}/s (with queries)`, ingestMixed, 20],
      [`GET first page (limit 50) @ ${QUERY_RATE}/s`, first, 50],
      [`GET deep page (cursor at 50%) @ ${QUERY_RATE}/s`, deep, 50],
      [`GET filtered (source+status+dates) @ ${QUERY_RATE}/s`, filter, 50],
      ['GET by-page (all entries) @ 5/s', byPage, 50],
    ];
    const shape = BURSTS ? 'autocannon per-second bursts' : "steady open-loop arrivals, latency from each request's due time";
    console.log(
      `\nbench:feedback — ${Number(child.ready.entries).toLocaleString('en')} entries, ${SECONDS} s per load (${shape}), 127.0.0.1, node ${process.version}\n`,
    );
    printTable(
      ['load', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'target p99', 'met'],
      loads.map(([name, r, target]) => [
        name,
        Math.round(r.rps),
        r.p50,
        r.p99,
        r.non2xx + r.errors,
        `< ${target} ms`,
        r.p99 < target && r.non2xx + r.errors === 0 ? 'yes' : 'NO',
      ]),
    );
    console.log('');
    const startup = Number(child.ready.startupMs);
    const maxRss = Number(stats.maxRss);
    const maxStall = Number(stats.maxStallMs);
    printTable(
      ['figure', 'value', 'target', 'met'],
      [
        [
          'startup: feedback module ready (index load)',
          `${ms(startup)} (load ${ms(Number(child.ready.loadMs))})`,
          '< 5000 ms',
          startup < 5000 ? 'yes' : 'NO',
        ],
        ['startup: CPU time of that (what an idle machine would wait)', ms(Number(child.ready.startupCpuMs)), '-', '-'],
        ['startup: process spawn → listening (incl. tsx)', ms(child.wallStartupMs), '-', '-'],
        ['RSS after load', mb(Number(child.ready.rss)), '< 512 MB', Number(child.ready.rss) < 512 * 1024 * 1024 ? 'yes' : 'NO'],
        ['RSS max during loads', mb(maxRss), '< 512 MB', maxRss < 512 * 1024 * 1024 ? 'yes' : 'NO'],
        ['disk size of segments', mb(disk), '-', '-'],
        ['max event-loop stall during loads', ms(maxStall), '< 50 ms', maxStall < 50 ? 'yes' : 'NO'],
        ['p99 event-loop delay during loads', ms(Number(stats.p99StallMs)), '-', '-'],
        [`lowdb JSONFile: one write at ${LOWDB_RECORDS.toLocaleString('en')} records`, ms(lowdbMs), 'contrast', '-'],
        ['generation of the segments', ms(gen.ms), '-', '-'],
        ['baseline: 300 B append + fdatasync on this disk, p50 / p99', `${ms(disk0.p50)} / ${ms(disk0.p99)}`, '-', '-'],
        ['machine load average (1 min) before / after, on 2 cores', `${loadBefore.toFixed(1)} / ${loadavg()[0].toFixed(1)}`, '-', '-'],
      ],
    );
    console.log(`\nsources: ${FEEDBACK_SOURCES.join(', ')}; entries after the run: ${Number(stats.entries).toLocaleString('en')}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// Dispatch last, so every constant above is initialised before either role runs.
if (process.argv[2] === '--serve') await serve(process.argv[3]);
else await main();
