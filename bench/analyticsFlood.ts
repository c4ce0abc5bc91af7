// npm run bench:analytics-flood [-- --minutes 10 --addresses 1 --connections 8]
// Floods the real appliance (a child process on 127.0.0.1, default limits) with both kinds of
// analytics the red team used in issue 28: page views with a new User-Agent per request and
// search beacons with a unique query each. Samples the server's RSS every second, then kills
// it (-9, a crash: the worst start) and restarts it, then stops it gracefully and restarts it
// again, timing each start. Bounded: ends after --minutes; talks to 127.0.0.1 only (with
// --addresses N the requests come from 127.0.0.1…127.0.0.N, all loopback).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { makeTestConfig } from '../test/helpers/testAppliance.js';
import { writeBundle } from '../test/deploy/helpers/testBundles.js';
import { printTable } from './runAutocannon.js';

const DOMAIN = 'docs.test.internal';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const PAGES = ['/', '/guides/start', '/guides/', '/reference', '/llms.txt'];

/** What the child prints once it listens. */
interface Ready {
  url: string;
  key: string;
  projectId: string;
  startupMs: number;
  analytics: { scannedEvents: number; checkpointDays: number; loadMs: number };
}

// Child mode: run the appliance on `dataDir` until SIGTERM (deploying the bundle on a first start).
if (process.argv[2] === '--serve') {
  const [, , , dataDir, bundle] = process.argv;
  const { startAppliance } = await import('../src/app/startAppliance.js');
  const { createLogger } = await import('../src/platform/logging/createLogger.js');
  const { systemClock } = await import('../src/platform/Clock.js');
  const started = performance.now();
  const config = makeTestConfig(dataDir, { sites: [{ domain: DOMAIN, source: dataDir }] });
  const app = await startAppliance({ config, logger: createLogger('silent'), clock: systemClock, serveSample: false });
  const startupMs = performance.now() - started;
  let key = app.createdAdminKey ?? '';
  if (bundle) {
    const res = await fetch(`${app.url}/v1/deployments`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ bundleUrl: bundle }),
    });
    if (res.status !== 200 && res.status !== 202) throw new Error(`deploy → ${res.status} ${await res.text()}`);
    // A loaded machine may answer 202 and activate a little later: wait for the site.
    for (let i = 0; i < 600 && (await fetch(app.url)).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
  } else key = '';
  const stats = app.features.analytics.log.stats;
  const ready: Ready = {
    url: app.url,
    key,
    projectId: app.projectId,
    startupMs,
    analytics: { scannedEvents: stats.scannedEvents, checkpointDays: stats.checkpointDays, loadMs: stats.loadMs },
  };
  // Registered before READY is printed: the parent may stop us as soon as it reads it.
  process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
  console.log(`READY ${JSON.stringify(ready)}`);
  await new Promise(() => undefined);
}

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    addresses: { type: 'string', default: '1' },
    connections: { type: 'string', default: '8' },
  },
});
const MINUTES = Number(values.minutes);
const ADDRESSES = Math.min(250, Math.max(1, Number(values.addresses)));
const CONNECTIONS = Math.max(2, Number(values.connections));
if (!(MINUTES > 0 && MINUTES <= 30)) throw new Error('--minutes must be between 0 and 30');

/** Starts the appliance child; resolves once it listens, with the wall time from spawn. */
async function startChild(dataDir: string, bundle = ''): Promise<{ child: ChildProcess; ready: Ready; spawnToReadyMs: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/analyticsFlood.ts', '--serve', dataDir, bundle], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('READY '));
      if (line) resolve(JSON.parse(line.slice(6)) as Ready);
    });
    child.on('exit', (code) => reject(new Error(`the appliance exited (${code}) before it was ready`)));
  });
  return { child, ready, spawnToReadyMs: performance.now() - t0 };
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

function send(agent: Agent, url: URL, method: string, path: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ agent, host: url.hostname, port: url.port, method, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(10_000, () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/** The highest sample of each minute, in MB. */
function perMinute(samples: number[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < samples.length; i += 60) out.push(`${Math.round(Math.max(...samples.slice(i, i + 60)))}`);
  return out;
}

const dir = await mkdtemp(join(tmpdir(), 'enclave-bench-flood-'));
const dataDir = join(dir, 'data');
try {
  const bundle = join(dir, 'site.zip');
  await writeBundle(bundle, 'v1');
  const first = await startChild(dataDir, bundle);
  const { key } = first.ready;
  const url = new URL(first.ready.url);
  const pid = first.child.pid ?? 0;
  const rssBefore = await rssMb(pid);
  const agents = Array.from({ length: ADDRESSES }, (_, i) => new Agent({ keepAlive: true, localAddress: `127.0.0.${i + 1}` }));
  const statuses = new Map<string, number>();
  const count = (kind: string, status: number) => statuses.set(`${kind} ${status}`, (statuses.get(`${kind} ${status}`) ?? 0) + 1);
  let peakRss = rssBefore;
  const samples: number[] = [];
  const sampler = setInterval(() => {
    void rssMb(pid).then((mb) => {
      peakRss = Math.max(peakRss, mb);
      samples.push(mb);
    });
  }, 1000);
  const endAt = performance.now() + MINUTES * 60_000;
  let n = 0;
  console.log(`flooding for ${MINUTES} min from ${ADDRESSES} address(es), ${CONNECTIONS} connections…`);
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, c) => {
      while (performance.now() < endAt) {
        const i = n++;
        const agent = agents[i % ADDRESSES];
        if (c % 2 === 0) {
          const ua = `${CHROME} flood/${i}`;
          count('view', await send(agent, url, 'GET', PAGES[i % PAGES.length], { 'User-Agent': ua }));
        } else {
          const body = JSON.stringify({
            type: 'search',
            query: `unique query ${i} ${Math.random().toString(36).slice(2)}`,
            results: i % 4,
          });
          count('search', await send(agent, url, 'POST', '/_enclave/search-events', { 'Content-Type': 'application/json' }, body));
        }
      }
    }),
  );
  clearInterval(sampler);
  const rssEnd = await rssMb(pid);
  const report = await fetch(`${url.origin}/v1/analytics/${first.ready.projectId}/visitors`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  const visitors = report.status === 200 ? ((await report.json()) as { totals: { total: number } }).totals.total : `HTTP ${report.status}`;
  for (const agent of agents) agent.destroy();

  // A crash (kill -9): the next start reads the last checkpoint and scans what came after it.
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));
  const afterCrash = await startChild(dataDir);
  // A graceful stop checkpoints today: the next start scans nothing.
  afterCrash.child.kill('SIGTERM');
  await new Promise((r) => afterCrash.child.once('exit', r));
  const afterStop = await startChild(dataDir);
  const rssRestarted = await rssMb(afterStop.child.pid ?? 0);
  afterStop.child.kill('SIGTERM');
  await new Promise((r) => afterStop.child.once('exit', r));

  console.log('');
  printTable(
    ['requests (kind status)', 'count'],
    [...statuses].sort().map(([k, v]) => [k, v.toLocaleString('en')]),
  );
  console.log('');
  const start = (s: typeof afterCrash) =>
    `${Math.round(s.spawnToReadyMs)} ms from spawn (appliance start ${Math.round(s.ready.startupMs)} ms; analytics load ${s.ready.analytics.loadMs} ms, ${s.ready.analytics.scannedEvents.toLocaleString('en')} events scanned, ${s.ready.analytics.checkpointDays} day(s) from a checkpoint)`;
  printTable(
    ['figure', 'value'],
    [
      ['flood', `${MINUTES} min, ${ADDRESSES} address(es), ${CONNECTIONS} connections, ${n.toLocaleString('en')} requests`],
      [
        'server RSS before / peak / end',
        `${Math.round(rssBefore)} / ${Math.round(peakRss)} / ${Math.round(rssEnd)} MB (target: peak < 512 MB)`,
      ],
      [
        'RSS in the last minute (min–max)',
        `${Math.round(Math.min(...samples.slice(-60)))}–${Math.round(Math.max(...samples.slice(-60)))} MB`,
      ],
      ['peak RSS per minute', `${perMinute(samples).join(' / ')} MB`],
      ['visitors reported for the day', String(visitors)],
      ['restart after kill -9', start(afterCrash)],
      ['restart after a graceful stop', start(afterStop)],
      ['RSS after the restart', `${Math.round(rssRestarted)} MB`],
    ],
  );
} finally {
  if (!process.env.BENCH_KEEP) await rm(dir, { recursive: true, force: true });
  else console.log(`kept ${dir}`);
}
