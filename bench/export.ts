// npm run bench:export [-- --peers] [--runs N] [--only NAME]… [--source]
// Static export as a user runs it: the appliance is `node dist/main.js` in its own process (built
// first; --source runs src/ under tsx instead), driven over its HTTP API like an admin script.
// Per run, a fresh data directory: the sample site goes live first (as on any first start), then
// the corpus is exported three times: highlighting cache cold, then warm, then cold again (the
// cache removed) while this process offers a steady load to the admin API and records its
// latency. The first two runs are the ones compared with the peers, which build with nothing
// else running; the third shows what the API load costs the export and what the export costs
// the API. Synthetic corpora of 1,000 and 5,000 pages and the mcp corpus; medians over --runs (default 3).
// With --peers, the plain-Markdown twin of the 1,000-page corpus is built with VitePress 1.6
// (installed into a temp dir first) and Hugo (Debian package) once after each 1,000-page run, so
// each run pairs Enclave with the peers on the same spell of a noisy machine; the ratios printed
// are medians of those per-run ratios.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { runAutocannon, type LoadResult } from './runAutocannon.js';

const withPeers = process.argv.includes('--peers');
const fromSource = process.argv.includes('--source');
const argValues = (flag: string) => process.argv.flatMap((a, i) => (process.argv[i - 1] === flag ? [a] : []));
const runs = Math.max(1, Number(argValues('--runs')[0] ?? 3));
/** `--only synthetic-1000` (repeatable) limits the run to the named corpora. */
const only = argValues('--only');
const wanted = (name: string) => only.length === 0 || only.includes(name);
/** Offered load on the admin API while a cold export runs (the target is p99 under 50 ms). */
const API_RATE = 200;
const generator = resolve('../shared/bin/gen-corpus.mjs');
const work = mkdtempSync(join(tmpdir(), 'enclave-bench-export-'));

/** One export as measured from outside, plus what the job recorded about its worker. */
interface Sample {
  pages: number;
  seconds: number;
  renderSeconds: number;
  zipSeconds: number;
  peakRssMb: number;
  zipMb: number;
  /** API latency while this export ran (cold runs only). */
  api: LoadResult | null;
}

/** Writes a synthetic corpus; the plain twin (if asked) is moved beside it so Enclave doesn't publish it too. */
function synthetic(pages: number, plain: boolean): { dir: string; plainDir: string | null } {
  const dir = join(work, `synthetic-${pages}`);
  execFileSync(process.execPath, [generator, dir, String(pages), ...(plain ? ['--plain'] : [])], { stdio: 'ignore' });
  if (!plain) return { dir, plainDir: null };
  const plainDir = join(work, `plain-${pages}`);
  renameSync(join(dir, 'plain'), plainDir);
  return { dir, plainDir };
}

interface Server {
  url: string;
  key: string;
  projectId: string;
  dataDir: string;
  proc: ChildProcess;
}

/** Starts the appliance on a fresh data directory with `sites`, as `npm start` or the container would. */
async function startServer(name: string, sites: { domain: string; source: string }[]): Promise<Server> {
  const dataDir = join(work, `data-${name}`);
  rmSync(dataDir, { recursive: true, force: true });
  const configFile = join(work, `config-${name}.json`);
  writeFileSync(configFile, JSON.stringify({ sites, export: { jobTimeoutSeconds: 3600 } }));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ENCLAVE_')));
  const entry = fromSource ? ['--import', 'tsx', 'src/main.ts'] : ['dist/main.js'];
  const proc = spawn(process.execPath, entry, {
    env: { ...env, ENCLAVE_CONFIG: configFile, ENCLAVE_DATA_DIR: dataDir, ENCLAVE_PORT: '0', ENCLAVE_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const found: Record<string, string> = {};
  const ready = new Promise<void>((resolveReady, reject) => {
    const look = (line: string) => {
      const m = /^(ENCLAVE_ADMIN_KEY|ENCLAVE_PROJECT_ID)=(\S+)$/.exec(line) ?? /^Enclave (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (m) found[m.length === 3 ? m[1] : 'url'] = m.length === 3 ? m[2] : m[1];
      if (found.url && found.ENCLAVE_ADMIN_KEY && found.ENCLAVE_PROJECT_ID) resolveReady();
    };
    createInterface({ input: proc.stdout! }).on('line', look);
    createInterface({ input: proc.stderr! }).on('line', look);
    proc.once('exit', (code) => reject(new Error(`appliance exited (${code}) before it was ready`)));
  });
  await ready;
  const server = { url: found.url, key: found.ENCLAVE_ADMIN_KEY, projectId: found.ENCLAVE_PROJECT_ID, dataDir, proc };
  // First start exports and serves the sample docs; measured exports must not queue behind it.
  await until(async () => (await fetch(`${server.url}/`)).status === 200, 300_000, 'the sample site to go live');
  return server;
}

async function stopServer(server: Server): Promise<void> {
  const exited = new Promise((r) => server.proc.once('exit', r));
  server.proc.kill('SIGTERM');
  await exited;
}

async function until(check: () => Promise<boolean>, timeoutMs: number, what: string, pollMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Pause before each export. Admin scripts export minutes apart, not back to back; meanwhile the
 * appliance readies its spare worker (export.spareWorker), as it would in use.
 */
const SETTLE_MS = 3000;

/** Exports `domain` over the API and waits for the job to end; `probe` adds the admin-API load. */
async function exportOnce(server: Server, domain: string, probe: boolean): Promise<Sample> {
  const auth = { Authorization: `Bearer ${server.key}` };
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const started = performance.now();
  const res = await fetch(`${server.url}/v1/static-export/jobs`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ domain }),
  });
  if (res.status !== 202) throw new Error(`export of ${domain} refused: ${res.status} ${await res.text()}`);
  const { jobId } = (await res.json()) as { jobId: string };
  const done = (async () => {
    await until(
      async () => {
        const job = (await (await fetch(`${server.url}/v1/static-export/jobs/${jobId}`, { headers: auth })).json()) as {
          status: string;
          error?: string;
        };
        if (job.status === 'failed') throw new Error(`export of ${domain} failed: ${job.error}`);
        return job.status === 'completed';
      },
      3_600_000,
      `export ${jobId}`,
      // The peers are timed to their process's exit: a coarse poll would add up to its interval
      // to Enclave's time alone.
      10,
    );
    return performance.now();
  })();
  // A steady admin-script load for as long as the export runs; the worker must not starve the API.
  const api = probe
    ? await runAutocannon({
        url: `${server.url}/v1/projects/${server.projectId}`,
        headers: auth,
        seconds: 3600,
        connections: 4,
        rate: API_RATE,
        until: done,
      })
    : null;
  const seconds = ((await done) - started) / 1000;
  // The worker's own figures are in the job store; the API can answer "completed" a moment
  // before that write is on disk.
  type StoredJob = {
    id: string;
    pageCount: number;
    stats?: { renderMs: number; packMs: number; peakRssBytes: number };
    bundle?: { sizeBytes: number };
  };
  let job: StoredJob | undefined;
  await until(
    async () => {
      const store = JSON.parse(readFileSync(join(server.dataDir, 'exports.json'), 'utf8')) as { jobs: StoredJob[] };
      job = store.jobs.find((j) => j.id === jobId && j.stats);
      return job !== undefined;
    },
    10_000,
    `the record of ${jobId}`,
  );
  if (!job) throw new Error(`no record of ${jobId}`);
  return {
    pages: job.pageCount,
    seconds,
    renderSeconds: (job.stats?.renderMs ?? 0) / 1000,
    zipSeconds: (job.stats?.packMs ?? 0) / 1000,
    peakRssMb: (job.stats?.peakRssBytes ?? 0) / 2 ** 20,
    zipMb: (job.bundle?.sizeBytes ?? 0) / 1e6,
    api,
  };
}

interface Row {
  corpus: string;
  cache: 'cold' | 'warm' | 'cold + API load';
  samples: Sample[];
}

/**
 * `runs` times: a fresh appliance exports `source` cold, warm, then cold under API load.
 * `afterRun` (the peers' builds) runs after each, so both see the same spell of this noisy
 * machine and each run gives a paired ratio.
 */
async function benchCorpus(name: string, source: string, afterRun?: () => void): Promise<Row[]> {
  const domain = `${name}.bench`;
  const cold: Sample[] = [];
  const warm: Sample[] = [];
  const loaded: Sample[] = [];
  for (let run = 1; run <= runs; run++) {
    const server = await startServer(name, [{ domain, source }]);
    try {
      cold.push(await exportOnce(server, domain, false));
      warm.push(await exportOnce(server, domain, false));
      // Only the highlight cache makes a run warm; without it the next export is cold again.
      rmSync(join(server.dataDir, 'cache', 'render'), { recursive: true, force: true });
      loaded.push(await exportOnce(server, domain, true));
    } finally {
      await stopServer(server);
    }
    const s = (list: Sample[]) => list.at(-1)!.seconds.toFixed(1);
    process.stderr.write(
      `  ${name} run ${run}/${runs}: cold ${s(cold)} s, warm ${s(warm)} s, cold + API load ${s(loaded)} s (load ${loadavg()[0].toFixed(1)})\n`,
    );
    afterRun?.();
  }
  return [
    { corpus: name, cache: 'cold', samples: cold },
    { corpus: name, cache: 'warm', samples: warm },
    { corpus: name, cache: 'cold + API load', samples: loaded },
  ];
}

const median = (values: number[]) => {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

/** A peer build as measured. */
type Measured = { seconds: number; peakRssMb: number };

/** Runs a command under GNU time; wall seconds and peak RSS (MB) of the command and its children. */
function timed(command: string, args: string[], cwd: string): Measured {
  const res = spawnSync('/usr/bin/time', ['-v', command, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (res.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${res.status}):\n${(res.stderr ?? '').slice(-3000)}`);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(res.stderr)!;
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(res.stderr)!;
  return { seconds: Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]), peakRssMb: Number(rss[1]) / 1024 };
}

function ensureDebianPackage(binary: string, pkg: string): void {
  if (spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0) return;
  process.stderr.write(`  installing Debian package ${pkg}\n`);
  if (spawnSync('apt-get', ['install', '-y', '-q', pkg], { stdio: 'ignore' }).status !== 0) {
    execFileSync('apt-get', ['update', '-q'], { stdio: 'ignore' });
    execFileSync('apt-get', ['install', '-y', '-q', pkg], { stdio: 'ignore' });
  }
}

const vitePressDir = join(work, 'vitepress');

/** Installs VitePress 1.6 into a temp dir (before any timing starts). */
function installVitePress(): void {
  const dir = vitePressDir;
  if (existsSync(join(dir, 'node_modules', 'vitepress'))) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'vitepress-bench', private: true, type: 'module' }));
  process.stderr.write('  installing vitepress@1.6 into a temp dir\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', 'vitepress@1.6'], { cwd: dir, stdio: 'ignore' });
}

/** VitePress 1.6 building the plain twin. */
function benchVitePress(plainDir: string): Measured {
  const dir = vitePressDir;
  // Every run builds from scratch: no docs, output or cache left by the previous one.
  rmSync(join(dir, 'docs'), { recursive: true, force: true });
  cpSync(plainDir, join(dir, 'docs'), { recursive: true });
  mkdirSync(join(dir, 'docs', '.vitepress'), { recursive: true });
  writeFileSync(join(dir, 'docs', '.vitepress', 'config.mjs'), "export default { title: 'Synthetic Docs', ignoreDeadLinks: true };\n");
  return timed(process.execPath, [join(dir, 'node_modules', 'vitepress', 'bin', 'vitepress.js'), 'build', 'docs'], dir);
}

/** Hugo (Debian) building the same plain Markdown with a minimal layout. */
function benchHugo(plainDir: string): Measured {
  const dir = join(work, 'hugo');
  rmSync(dir, { recursive: true, force: true });
  cpSync(plainDir, join(dir, 'content'), { recursive: true });
  renameSync(join(dir, 'content', 'index.md'), join(dir, 'content', '_index.md'));
  writeFileSync(join(dir, 'hugo.toml'), 'baseURL = "http://localhost/"\ntitle = "Synthetic Docs"\ndisableKinds = ["taxonomy", "term"]\n');
  const page =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body><main>{{ .Content }}</main></body></html>\n';
  mkdirSync(join(dir, 'layouts', '_default'), { recursive: true });
  for (const name of ['single.html', 'list.html']) writeFileSync(join(dir, 'layouts', '_default', name), page);
  writeFileSync(join(dir, 'layouts', 'index.html'), page);
  return timed('hugo', ['--quiet', '-s', dir, '-d', join(dir, 'public')], dir);
}

function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/** The peers and their builds, one per synthetic-1000 run, in run order. */
const peers = [
  { name: 'VitePress 1.6', build: benchVitePress, runs: [] as Measured[] },
  { name: 'Hugo (Debian)', build: benchHugo, runs: [] as Measured[] },
];

try {
  if (withPeers) {
    ensureDebianPackage('/usr/bin/time', 'time');
    ensureDebianPackage('hugo', 'hugo');
    installVitePress();
  }
  if (!fromSource) {
    process.stderr.write('building dist/ (the compiled appliance, as the container runs it)\n');
    execFileSync('npm', ['run', '--silent', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  process.stderr.write(`generating corpora; ${runs} run(s) each; load average ${loadavg()[0].toFixed(1)}\n`);
  const small = synthetic(1000, withPeers);
  const large = wanted('synthetic-5000') ? synthetic(5000, false) : { dir: '' };
  const rows: Row[] = [];
  const buildPeers = () => {
    for (const peer of peers) peer.runs.push(peer.build(small.plainDir!));
    process.stderr.write(`  peers: ${peers.map((p) => `${p.name} ${p.runs.at(-1)!.seconds.toFixed(1)} s`).join(', ')}\n`);
  };
  if (wanted('synthetic-1000'))
    rows.push(...(await benchCorpus('synthetic-1000', small.dir, withPeers && small.plainDir ? buildPeers : undefined)));
  if (wanted('synthetic-5000')) rows.push(...(await benchCorpus('synthetic-5000', large.dir)));
  if (wanted('mcp')) rows.push(...(await benchCorpus('mcp', resolve('../shared/corpora/mcp'))));

  const m = (r: Row, f: (s: Sample) => number) => median(r.samples.map(f));
  console.log(
    `\nbench:export — ${fromSource ? 'src/ under tsx' : 'dist/ (compiled)'}, appliance in its own process, driven over HTTP; node ${process.version}, ${cpus().length} CPUs; medians of ${runs} run(s)\n`,
  );
  console.log(
    table(
      [
        'corpus',
        'cache',
        'pages',
        'seconds',
        'render s',
        'zip s',
        'pages/s',
        'worker peak RSS MB (max)',
        'zip MB',
        `API p99 ms @${API_RATE}/s`,
      ],
      rows.map((r) => [
        r.corpus,
        r.cache,
        r.samples[0].pages,
        m(r, (s) => s.seconds).toFixed(2),
        m(r, (s) => s.renderSeconds).toFixed(2),
        m(r, (s) => s.zipSeconds).toFixed(2),
        (r.samples[0].pages / m(r, (s) => s.seconds)).toFixed(0),
        Math.max(...r.samples.map((s) => s.peakRssMb)).toFixed(0),
        r.samples[0].zipMb.toFixed(1),
        r.cache === 'cold + API load'
          ? m(r, (s) => s.api!.p99).toFixed(0) + (r.samples.some((s) => s.api!.errors + s.api!.non2xx) ? ' (some failed)' : '')
          : '',
      ]),
    ),
  );
  console.log('\nseconds: wall time from POST /v1/static-export/jobs until the job reads completed (worker start, render, zip, hash).');
  console.log(
    `API p99: authenticated GET of the project at a steady ${API_RATE} req/s from this process during the third export (cold cache again; target: under 50 ms).`,
  );
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );

  const enclave = rows.find((r) => r.corpus === 'synthetic-1000' && r.cache === 'cold');
  if (enclave && peers[0].runs.length > 0) {
    const enclaveSeconds = m(enclave, (s) => s.seconds);
    const enclaveRss = Math.max(...enclave.samples.map((s) => s.peakRssMb));
    // Each peer build ran right after an Enclave run: the ratio within a run is the fair one here.
    const pairedRatio = (list: Measured[]) => median(list.map((p, i) => p.seconds / enclave.samples[i].seconds));
    console.log(`\n1,000 pages (plain-Markdown twin for the peers), medians of ${runs}; each peer build right after an Enclave run\n`);
    console.log(
      table(
        ['generator', 'seconds', 'peak RSS MB', 'time vs Enclave (median of per-run ratios)', 'RSS vs Enclave'],
        [
          ['Enclave (cold cache)', enclaveSeconds.toFixed(2), enclaveRss.toFixed(0), '1.0×', '1.0×'],
          ...peers.map(({ name, runs: list }) => {
            const rss = Math.max(...list.map((x) => x.peakRssMb));
            return [
              name,
              median(list.map((x) => x.seconds)).toFixed(2),
              rss.toFixed(0),
              `${pairedRatio(list).toFixed(1)}×`,
              `${(rss / enclaveRss).toFixed(1)}×`,
            ];
          }),
        ],
      ),
    );
    const ratio = pairedRatio(peers[0].runs);
    const worstRss = Math.max(...rows.flatMap((r) => r.samples.map((s) => s.peakRssMb)));
    const apiP99 = Math.max(...rows.filter((r) => r.cache === 'cold + API load').map((r) => m(r, (s) => s.api!.p99)));
    console.log(
      `\ntargets: ≥ 10× faster than VitePress → ${ratio.toFixed(1)}× ${ratio >= 10 ? 'met' : 'NOT met'}; peak RSS < 400 MB → ${worstRss.toFixed(0)} MB ${worstRss < 400 ? 'met' : 'NOT met'}; API p99 < 50 ms → ${apiP99.toFixed(0)} ms ${apiP99 < 50 ? 'met' : 'NOT met'}`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
