/**
 * Renderer throughput and memory. Each corpus renders in its own child process (cold: fresh
 * highlight cache, fresh output folder) so peak RSS is per corpus.
 *   npx tsx bench/render.ts                 # synthetic 1,000 and 5,000 pages + the real corpora
 *   npx tsx bench/render.ts --quick         # synthetic 1,000 only
 * Columns: wall seconds and pages/s, CPU seconds (user+system) and pages per CPU second, peak RSS.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

if (process.argv[2] === '--child') {
  const { renderSite } = await import('../src/render/renderSite.js');
  const { openFolderSink } = await import('../src/bundle/openFolderSink.js');
  const [, , , sourceDir, work] = process.argv;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const r = await renderSite({
    sourceDir,
    out: await openFolderSink(join(work, 'out')),
    cacheDir: join(work, 'cache'),
    domain: 'bench.example',
    jobId: 'bench',
    now: new Date(),
    generatorVersion: 'bench',
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  // CPU time is reported too: on a shared machine wall time mostly measures the neighbours.
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  process.stdout.write(
    JSON.stringify({ pages: r.pageCount, failed: r.failed, seconds, cpuSeconds, rssMb: process.resourceUsage().maxRSS / 1024 }),
  );
  process.exit(0);
}

const quick = process.argv.includes('--quick');
const root = await mkdtemp(join(tmpdir(), 'enclave-bench-'));
const corpora: [string, string][] = [];
for (const n of quick ? [1000] : [1000, 5000]) {
  const dir = join(root, `synthetic-${n}`);
  execFileSync(process.execPath, [resolve('../shared/bin/gen-corpus.mjs'), dir, String(n)], { stdio: 'ignore' });
  corpora.push([`synthetic ${n}`, dir]);
}
if (!quick)
  for (const name of ['starter', 'mcp', 'unstructured']) {
    const dir = resolve('../shared/corpora', name);
    if (existsSync(dir)) corpora.push([name, dir]);
  }

const rows: string[][] = [['corpus', 'pages', 'failed', 'seconds', 'pages/s', 'cpu s', 'pages/cpu-s', 'peak RSS MB']];
try {
  for (const [name, dir] of corpora) {
    const work = await mkdtemp(join(root, 'run-'));
    const child = spawnSync(process.execPath, ['--import', 'tsx', here, '--child', dir, work], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (child.status !== 0) {
      rows.push([name, 'error', '', '', '', '', '', '']);
      process.stderr.write(child.stderr);
      continue;
    }
    const r = JSON.parse(child.stdout) as { pages: number; failed: number; seconds: number; cpuSeconds: number; rssMb: number };
    rows.push([
      name,
      String(r.pages),
      String(r.failed),
      r.seconds.toFixed(2),
      (r.pages / r.seconds).toFixed(0),
      r.cpuSeconds.toFixed(2),
      (r.pages / r.cpuSeconds).toFixed(0),
      r.rssMb.toFixed(0),
    ]);
    await rm(work, { recursive: true, force: true });
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
