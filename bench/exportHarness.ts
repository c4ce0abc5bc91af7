// The pieces of the export benchmarks (bench:export, bench:incremental): corpora, the appliance
// in its own process driven over HTTP, exports timed from outside, and the peers (Hugo,
// VitePress) building the plain-Markdown twin. `--source` runs src/ under tsx instead of dist/.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { runAutocannon, type LoadResult } from './runAutocannon.js';

const fromSource = process.argv.includes('--source');
/** Offered load on the admin API while an export runs (the target is p99 under 50 ms). */
export const API_RATE = 200;
const generator = resolve('../shared/bin/gen-corpus.mjs');
/** This bench run's scratch folder (the caller removes it at the end). */
export const work = mkdtempSync(join(tmpdir(), 'enclave-bench-export-'));

/** One export as measured from outside, plus what the job recorded about its worker. */
export interface Sample {
  jobId: string;
  /** Pages reused from the incremental cache, and rendered afresh. */
  reusedPages: number;
  renderedPages: number;
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
export function synthetic(pages: number, plain: boolean): { dir: string; plainDir: string | null } {
  const dir = join(work, `synthetic-${pages}`);
  execFileSync(process.execPath, [generator, dir, String(pages), ...(plain ? ['--plain'] : [])], { stdio: 'ignore' });
  if (!plain) return { dir, plainDir: null };
  const plainDir = join(work, `plain-${pages}`);
  renameSync(join(dir, 'plain'), plainDir);
  return { dir, plainDir };
}

export interface Server {
  url: string;
  key: string;
  projectId: string;
  dataDir: string;
  proc: ChildProcess;
}

/** Starts the appliance on a fresh data directory with `sites`, as `npm start` or the container would. */
export async function startServer(name: string, sites: { domain: string; source: string }[]): Promise<Server> {
  const dataDir = join(work, `data-${name}`);
  rmSync(dataDir, { recursive: true, force: true });
  const configFile = join(work, `config-${name}.json`);
  // BENCH_EXPORT_SETTINGS='{"renderThreads":0}' compares export settings in one session (the
  // appliance's own ENCLAVE_* variables are not passed on, so a shell's settings can't leak in).
  const extra = JSON.parse(process.env.BENCH_EXPORT_SETTINGS ?? '{}') as Record<string, unknown>;
  writeFileSync(configFile, JSON.stringify({ sites, export: { jobTimeoutSeconds: 3600, ...extra } }));
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

export async function stopServer(server: Server): Promise<void> {
  const exited = new Promise((r) => server.proc.once('exit', r));
  server.proc.kill('SIGTERM');
  await exited;
}

export async function until(check: () => Promise<boolean>, timeoutMs: number, what: string, pollMs = 50): Promise<void> {
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
export const SETTLE_MS = 3000;

/** Exports `domain` over the API and waits for the job to end; `probe` adds the admin-API load. */
export async function exportOnce(server: Server, domain: string, probe: boolean, extra: Record<string, unknown> = {}): Promise<Sample> {
  const auth = { Authorization: `Bearer ${server.key}` };
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const started = performance.now();
  const res = await fetch(`${server.url}/v1/static-export/jobs`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ domain, ...extra }),
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
    reusedPages?: number;
    renderedPages?: number;
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
    jobId,
    reusedPages: job.reusedPages ?? 0,
    renderedPages: job.renderedPages ?? job.pageCount,
    pages: job.pageCount,
    seconds,
    renderSeconds: (job.stats?.renderMs ?? 0) / 1000,
    zipSeconds: (job.stats?.packMs ?? 0) / 1000,
    peakRssMb: (job.stats?.peakRssBytes ?? 0) / 2 ** 20,
    zipMb: (job.bundle?.sizeBytes ?? 0) / 1e6,
    api,
  };
}

export const median = (values: number[]) => {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

/** A peer build as measured. */
export type Measured = { seconds: number; peakRssMb: number };

/** Runs a command under GNU time; wall seconds and peak RSS (MB) of the command and its children. */
export function timed(command: string, args: string[], cwd: string): Measured {
  const res = spawnSync('/usr/bin/time', ['-v', command, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (res.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${res.status}):\n${(res.stderr ?? '').slice(-3000)}`);
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(res.stderr)!;
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(res.stderr)!;
  return { seconds: Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]), peakRssMb: Number(rss[1]) / 1024 };
}

export function ensureDebianPackage(binary: string, pkg: string): void {
  if (spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0) return;
  process.stderr.write(`  installing Debian package ${pkg}\n`);
  if (spawnSync('apt-get', ['install', '-y', '-q', pkg], { stdio: 'ignore' }).status !== 0) {
    execFileSync('apt-get', ['update', '-q'], { stdio: 'ignore' });
    execFileSync('apt-get', ['install', '-y', '-q', pkg], { stdio: 'ignore' });
  }
}

export const vitePressDir = join(work, 'vitepress');

/** Installs VitePress 1.6 into a temp dir (before any timing starts). */
export function installVitePress(): void {
  const dir = vitePressDir;
  if (existsSync(join(dir, 'node_modules', 'vitepress'))) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'vitepress-bench', private: true, type: 'module' }));
  process.stderr.write('  installing vitepress@1.6 into a temp dir\n');
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', 'vitepress@1.6'], { cwd: dir, stdio: 'ignore' });
}

/** VitePress 1.6 building the plain twin. */
export function benchVitePress(plainDir: string): Measured {
  const dir = vitePressDir;
  // Every run builds from scratch: no docs, output or cache left by the previous one.
  rmSync(join(dir, 'docs'), { recursive: true, force: true });
  cpSync(plainDir, join(dir, 'docs'), { recursive: true });
  mkdirSync(join(dir, 'docs', '.vitepress'), { recursive: true });
  writeFileSync(join(dir, 'docs', '.vitepress', 'config.mjs'), "export default { title: 'Synthetic Docs', ignoreDeadLinks: true };\n");
  return timed(process.execPath, [join(dir, 'node_modules', 'vitepress', 'bin', 'vitepress.js'), 'build', 'docs'], dir);
}

/** Hugo (Debian) building the same plain Markdown with a minimal layout. */
export function benchHugo(plainDir: string): Measured {
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

export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}
