// npm run bench:analytics — reading analytics at 10 M view events (BENCH_EVENTS): ingest rate
// into the event store, startup of the whole appliance on that data directory, query latency
// p50/p99 of every report over HTTP, RSS, and page-serving throughput with collection on vs off.
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DAY_MS } from '../src/platform/Clock.js';
import { createLogger } from '../src/platform/logging/createLogger.js';
import { AnalyticsLog } from '../src/features/analytics/AnalyticsLog.js';
import { makeTempDir, startTestAppliance } from '../test/helpers/testAppliance.js';
import { deployAndWait, startLoggedAppliance } from '../test/deploy/helpers/loggedAppliance.js';
import { writeBundle } from '../test/deploy/helpers/testBundles.js';
import { printTable, runAutocannon } from './runAutocannon.js';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const QUERIES = [
  '/views',
  '/views?dateFrom=2026-01-01&dateTo=2026-02-01',
  '/views?groupBy=day&limit=10',
  '/visitors?groupBy=day',
  '/searches',
  '/searches?noResults=true',
];

// Child mode: start the appliance on the prepared data directory, time it, query, report JSON.
if (process.argv[2] === '--query') {
  const [, , , dataDir, projectId, key, rounds] = process.argv;
  const started = performance.now();
  const app = await startTestAppliance({ dataDir, overrides: { analytics: { requestsPerHour: 1e9 } } });
  const startupMs = performance.now() - started;
  const rows: { query: string; p50: number; p99: number }[] = [];
  for (const query of QUERIES) {
    const times: number[] = [];
    for (let i = 0; i < Number(rounds); i++) {
      const t0 = performance.now();
      const res = await fetch(`${app.url}/v1/analytics/${projectId}${query}`, { headers: { Authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${query} → ${res.status}`);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    rows.push({
      query,
      p50: times[Math.floor(times.length * 0.5)],
      p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))],
    });
  }
  const rssMb = process.memoryUsage().rss / 1048576;
  const stats = app.features.analytics.log.stats;
  await app.stop();
  console.log(JSON.stringify({ startupMs, rssMb, rows, stats }));
  process.exit(0);
}

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 100);
const PATHS = 500;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);

const dataDir = await makeTempDir('enclave-bench-analytics-');
try {
  // A first start bootstraps the project and its admin key; the events are then written for it.
  const boot = await startTestAppliance({ dataDir });
  const { projectId, key } = boot;
  await boot.stop();

  const log = await AnalyticsLog.open({ dataDir, logger: createLogger('silent'), today: 0 });
  const firstDay = Date.parse('2026-01-01T00:00:00Z') / DAY_MS;
  const perDay = Math.ceil(EVENTS / DAYS);
  const paths = Array.from({ length: PATHS }, (_, i) => (i === 0 ? '/' : `/section-${i % 20}/page-${i}`));
  const started = performance.now();
  let written = 0;
  for (let d = 0; d < DAYS && written < EVENTS; d++) {
    const dayStart = (firstDay + d) * DAY_MS;
    for (let i = 0; i < perDay && written < EVENTS; i++, written++) {
      // Zipf-ish page popularity; 20% AI; 5,000 visitors a day.
      const path = paths[Math.floor(PATHS * Math.random() ** 3)];
      const at = dayStart + Math.floor((i / perDay) * DAY_MS);
      log.record(projectId, {
        kind: 'view',
        at,
        domain: 'docs.bench',
        version: d < DAYS / 2 ? 'v1' : 'v2',
        path,
        ai: Math.random() < 0.2,
        visitor: Math.floor(Math.random() * 5000)
          .toString(16)
          .padStart(16, '0'),
      });
      if (i % 50 === 0)
        log.record(projectId, {
          kind: 'search',
          at,
          domain: 'docs.bench',
          query: `query ${Math.floor(2000 * Math.random() ** 2)}`,
          results: Math.random() < 0.1 ? 0 : 5,
        });
      if (written % 50_000 === 0) await log.flush();
    }
    await log.closeDaysBefore(firstDay + d + 1 === firstDay + DAYS ? firstDay + d : firstDay + d + 1);
  }
  await log.close();
  const ingestSeconds = (performance.now() - started) / 1000;

  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/analytics.ts', '--query', dataDir, projectId, key, String(ROUNDS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  await new Promise((resolve) => child.on('exit', resolve));
  const result = JSON.parse(out.trim().split('\n').at(-1)!) as {
    startupMs: number;
    rssMb: number;
    rows: { query: string; p50: number; p99: number }[];
    stats: { days: number; scannedDays: number; scannedEvents: number; loadMs: number };
  };

  console.log(
    `\nanalytics at ${written.toLocaleString('en')} view events over ${DAYS} days (+${Math.round(written / 50).toLocaleString('en')} searches), ${PATHS} pages\n`,
  );
  printTable(
    ['figure', 'value'],
    [
      [
        'ingest (record + batched durable append)',
        `${Math.round(written / ingestSeconds).toLocaleString('en')} events/s (${ingestSeconds.toFixed(1)} s)`,
      ],
      [
        'appliance startup on this data dir',
        `${Math.round(result.startupMs)} ms (analytics load ${result.stats.loadMs} ms, ${result.stats.days} days, ${result.stats.scannedDays} scanned)`,
      ],
      ['RSS after queries', `${Math.round(result.rssMb)} MB`],
    ],
  );
  console.log('');
  printTable(
    ['query (HTTP, sequential)', 'p50 ms', 'p99 ms'],
    result.rows.map((r) => [r.query, r.p50.toFixed(1), r.p99.toFixed(1)]),
  );

  // Serving throughput with the view hook on vs off, alternated to show the noise.
  const serve: (string | number)[][] = [];
  for (const collect of [true, false, true, false]) {
    const source = await makeTempDir('enclave-bench-site-');
    const app = await startLoggedAppliance({
      overrides: {
        logLevel: 'silent',
        sites: [{ domain: 'docs.test.internal', source }],
        analytics: { requestsPerHour: 100, collect, eventsPerMinute: 1e9 },
      },
    });
    await writeBundle(join(source, 'site.zip'), 'v1');
    await deployAndWait(app, { bundleUrl: join(source, 'site.zip') });
    const r = await runAutocannon({
      url: `${app.url}/guides/start`,
      seconds: SECONDS,
      connections: 32,
      headers: { 'User-Agent': CHROME, 'Accept-Encoding': 'br' },
    });
    serve.push([`GET /guides/start, analytics.collect ${collect}`, Math.round(r.rps), r.p99, r.non2xx + r.errors]);
    await app.close();
    await rm(source, { recursive: true, force: true });
  }
  console.log('');
  printTable(['serving (autocannon, 32 connections)', 'req/s', 'p99 ms', 'errors'], serve);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
