// npm run bench:export [-- --peers] — static export through the real job pipeline (module →
// queue → worker process → render → zip). Synthetic corpora of 1,000 and 5,000 pages and the
// mcp corpus, highlighting cache cold (fresh data dir) then warm (same data dir, second run).
// With --peers, the plain-Markdown twin of the 1,000-page corpus is also built with
// VitePress 1.6 (installed into a temp dir now) and Hugo (Debian package) for comparison.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config/loadConfig.js';
import { systemClock } from '../src/domain/Clock.js';
import { createLogger } from '../src/logging/createLogger.js';
import { startAppliance } from '../src/server/startAppliance.js';
import { runAutocannon, type LoadResult } from './runAutocannon.js';

const withPeers = process.argv.includes('--peers');
/** `--only synthetic-1000` (repeatable) limits the run to the named corpora. */
const only = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--only' ? [a] : []));
const wanted = (name: string) => only.length === 0 || only.includes(name);
/** Offered load on the admin API while a cold export runs (the target is p99 under 50 ms). */
const API_RATE = 200;
const generator = '/work/shared/bin/gen-corpus.mjs';
const work = mkdtempSync(join(tmpdir(), 'enclave-bench-export-'));

interface Row {
  corpus: string;
  cache: 'cold' | 'warm';
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

/** Exports `source` twice in one fresh appliance: cold highlighting cache, then warm. */
async function benchCorpus(name: string, source: string): Promise<Row[]> {
  const dataDir = join(work, `data-${name}`);
  const config = loadConfig({ env: { ENCLAVE_DATA_DIR: dataDir, ENCLAVE_PORT: '0', ENCLAVE_LOG_LEVEL: 'silent' } });
  const domain = `${name}.bench`;
  config.sites = [{ domain, source }];
  config.export.jobTimeoutSeconds = 3600;
  const app = await startAppliance({ config, logger: createLogger('silent'), clock: systemClock, serveSample: false });
  const rows: Row[] = [];
  try {
    for (const cache of ['cold', 'warm'] as const) {
      const started = performance.now();
      const exporting = app.modules.exports.exportAndBundle(domain);
      // An admin script polling while the export runs: the worker process must not starve the API.
      const api = cache === 'cold'
        ? await runAutocannon({ url: `${app.url}/v1/projects/${app.projectId}`, headers: { Authorization: `Bearer ${app.createdAdminKey}` }, seconds: 3600, connections: 4, rate: API_RATE, until: exporting })
        : null;
      const built = await exporting;
      const seconds = (performance.now() - started) / 1000;
      const job = app.modules.exports.jobs.find(built.jobId)!;
      rows.push({
        corpus: name,
        cache,
        pages: job.pageCount,
        seconds,
        renderSeconds: (job.stats?.renderMs ?? 0) / 1000,
        zipSeconds: (job.stats?.packMs ?? 0) / 1000,
        peakRssMb: (job.stats?.peakRssBytes ?? 0) / 2 ** 20,
        zipMb: (job.bundle?.sizeBytes ?? 0) / 1e6,
        api,
      });
      process.stderr.write(`  ${name} (${cache}): ${job.pageCount} pages in ${seconds.toFixed(1)} s\n`);
    }
  } finally {
    await app.stop();
  }
  return rows;
}

/** Runs a command under GNU time; wall seconds and peak RSS (MB) of the command and its children. */
function timed(command: string, args: string[], cwd: string): { seconds: number; peakRssMb: number } {
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

/** VitePress 1.6, installed into a temp dir now, building the plain twin. */
function benchVitePress(plainDir: string): { seconds: number; peakRssMb: number } {
  const dir = join(work, 'vitepress');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'vitepress-bench', private: true, type: 'module' }));
  process.stderr.write('  installing vitepress@1.6 into a temp dir\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', 'vitepress@1.6'], { cwd: dir, stdio: 'ignore' });
  cpSync(plainDir, join(dir, 'docs'), { recursive: true });
  mkdirSync(join(dir, 'docs', '.vitepress'), { recursive: true });
  writeFileSync(join(dir, 'docs', '.vitepress', 'config.mjs'), "export default { title: 'Synthetic Docs', ignoreDeadLinks: true };\n");
  return timed(process.execPath, [join(dir, 'node_modules', 'vitepress', 'bin', 'vitepress.js'), 'build', 'docs'], dir);
}

/** Hugo (Debian) building the same plain Markdown with a minimal layout. */
function benchHugo(plainDir: string): { seconds: number; peakRssMb: number } {
  ensureDebianPackage('hugo', 'hugo');
  const dir = join(work, 'hugo');
  cpSync(plainDir, join(dir, 'content'), { recursive: true });
  renameSync(join(dir, 'content', 'index.md'), join(dir, 'content', '_index.md'));
  writeFileSync(join(dir, 'hugo.toml'), 'baseURL = "http://localhost/"\ntitle = "Synthetic Docs"\ndisableKinds = ["taxonomy", "term"]\n');
  const page = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body><main>{{ .Content }}</main></body></html>\n';
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

try {
  if (withPeers) ensureDebianPackage('/usr/bin/time', 'time');
  process.stderr.write('generating corpora\n');
  const small = synthetic(1000, withPeers);
  const large = wanted('synthetic-5000') ? synthetic(5000, false) : { dir: '' };
  const rows: Row[] = [];
  if (wanted('synthetic-1000')) rows.push(...(await benchCorpus('synthetic-1000', small.dir)));
  if (wanted('synthetic-5000')) rows.push(...(await benchCorpus('synthetic-5000', large.dir)));
  if (wanted('mcp')) rows.push(...(await benchCorpus('mcp', '/work/shared/corpora/mcp')));

  console.log(`\nbench:export — real job pipeline (worker process: render + zip), node ${process.version}, ${(await import('node:os')).cpus().length} CPUs\n`);
  console.log(
    table(
      ['corpus', 'cache', 'pages', 'seconds', 'render s', 'zip s', 'pages/s', 'worker peak RSS MB', 'zip MB', `API p99 ms @${API_RATE}/s`],
      rows.map((r) => [r.corpus, r.cache, r.pages, r.seconds.toFixed(1), r.renderSeconds.toFixed(1), r.zipSeconds.toFixed(1), (r.pages / r.seconds).toFixed(0), r.peakRssMb.toFixed(0), r.zipMb.toFixed(1), r.api ? `${r.api.p99}${r.api.errors + r.api.non2xx ? ` (${r.api.errors + r.api.non2xx} failed)` : ''}` : '']),
    ),
  );
  console.log('\nseconds: wall time of the job from queueing to a verified zip (worker start, render, zip, hash).');
  console.log(`API p99: authenticated GET of the project at a steady ${API_RATE} req/s for as long as the cold export ran (target: under 50 ms).`);

  if (withPeers && small.plainDir) {
    const enclave = rows.find((r) => r.corpus === 'synthetic-1000' && r.cache === 'cold')!;
    const peers: [string, { seconds: number; peakRssMb: number }][] = [];
    peers.push(['VitePress 1.6', benchVitePress(small.plainDir)]);
    peers.push(['Hugo (Debian)', benchHugo(small.plainDir)]);
    console.log('\n1,000 pages (plain-Markdown twin for the peers)\n');
    console.log(
      table(
        ['generator', 'seconds', 'peak RSS MB', 'time vs Enclave', 'RSS vs Enclave'],
        [
          ['Enclave (cold cache)', enclave.seconds.toFixed(1), enclave.peakRssMb.toFixed(0), '1.0×', '1.0×'],
          ...peers.map(([name, p]) => [name, p.seconds.toFixed(1), p.peakRssMb.toFixed(0), `${(p.seconds / enclave.seconds).toFixed(1)}×`, `${(p.peakRssMb / enclave.peakRssMb).toFixed(1)}×`]),
        ],
      ),
    );
    const vite = peers[0][1];
    console.log(`\ntargets: ≥ 10× faster than VitePress → ${(vite.seconds / enclave.seconds).toFixed(1)}× ${vite.seconds / enclave.seconds >= 10 ? 'met' : 'NOT met'}; peak RSS < 400 MB → ${Math.max(...rows.map((r) => r.peakRssMb)).toFixed(0)} MB ${Math.max(...rows.map((r) => r.peakRssMb)) < 400 ? 'met' : 'NOT met'}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
