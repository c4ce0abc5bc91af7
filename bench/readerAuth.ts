// npm run bench:reader-auth — what reader sign-in costs, as issue 30's two ratios.
// (1) Serving: the access fixture's /team/notes (a page for signed-in readers) on 127.0.0.1 with
// BENCH_CONNECTIONS (10) connections, sign-in off against a signed-in reader's cookie on the same
// appliance, in BENCH_ROUNDS (7) rounds of BENCH_SECONDS (4) s each after a 1 s warm-up of both;
// the order within a round alternates (off first, then signed-in first) so a drift of the
// machine's load favours neither. The appliance runs in a child process of its own (this file
// with --serve) and the load generator (autocannon) in this one: until 2026-11-27 both shared one
// process, so the generator's own work took event-loop time from the server and the ratio
// understated a cheap path and overstated a dear one. Besides requests per second, the child
// reports its CPU time around each run, giving the server's CPU µs per request: unlike req/s,
// that moves less with the machine's load. Medians of the per-round ratios. Before the rounds
// both configurations' answers are compared (compareAnswers: same status and encoding, or the
// bench stops). After them: the server's CPU per request under a pipelined raw client
// (pipelinedLoad: its cost does not depend on the answer's headers, unlike autocannon's parser),
// the appliance's HTTP server fed in memory (inMemoryHttp: no kernel, no client; the least
// load-dependent whole-server figure), and the site handler alone (no sockets: a stand-in
// request, 200,000 calls, in the child), each for both paths.
// (2) Export: the synthetic 1,000-page site rendered in-process as it is and with access marks
// giving three audiences (public, signed-in, one group: a third of the pages each), alternating,
// BENCH_EXPORT_ROUNDS (5) times each after a warm-up render; wall time and CPU time (all threads).
// Ends with one table of the ratios (medians) against the targets: serving ≥ 0.9×,
// export ≤ 1.15×. BENCH_ONLY=serve or =export runs one half; BENCH_CPU_PROF=<dir> runs the
// serving child under --cpu-prof (a profile in <dir>).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { openFolderSink } from '../src/bundle/openFolderSink.js';
import { renderSite } from '../src/render/renderSite.js';
import { compareAnswers } from './readerAuth/compareAnswers.js';
import { pipelinedLoad } from './readerAuth/pipelinedLoad.js';
import { type ReaderSiteReady, serveReaderSite } from './readerAuth/serveReaderSite.js';
import { printTable, runAutocannon } from './runAutocannon.js';

const here = fileURLToPath(import.meta.url);
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const exportRounds = Number(process.env.BENCH_EXPORT_ROUNDS ?? 5);
const pipelinedRequests = Number(process.env.BENCH_PIPELINED_REQUESTS ?? 20_000);
const profileDir = process.env.BENCH_CPU_PROF;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () => loadavg()[0].toFixed(1);

/** One load run against the child: requests/s, p99 and the child's CPU µs per answered request. */
interface Run {
  rps: number;
  p99: number;
  cpuPerRequest: number;
}

/** What benchServing measured: median ratios, and per-request CPU µs of two in-process measurements. */
interface Serving {
  rps: number;
  cpu: number;
  pipelined: number;
  http: { off: number; on: number };
  handler: { off: number; on: number };
}

async function benchServing(): Promise<Serving> {
  const flags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`] : [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', here, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async <T>(): Promise<T> => {
    const line = await lines.next();
    if (line.done) throw new Error('the bench appliance exited');
    return JSON.parse(line.value) as T;
  };
  const ask = async (command: string) => {
    child.stdin!.write(`${command}\n`);
    return (await next<{ cpuMicros: number }>()).cpuMicros;
  };
  // A measurement in the child (`handler` or `http`), both paths in turn, `times` times; medians.
  const inChild = async (command: 'handler' | 'http', times: number, what: string) => {
    const got = { off: [] as number[], on: [] as number[] };
    for (let i = 0; i < times; i++)
      for (const mode of i % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
        child.stdin!.write(`${command} ${mode}\n`);
        got[mode].push((await next<{ micros: number }>()).micros);
      }
    const [off, on] = [median(got.off), median(got.on)];
    console.log(`${what}, median of ${times}: auth off ${off.toFixed(2)} µs, signed in ${on.toFixed(2)} µs per request\n`);
    return { off, on };
  };
  const handlerAlone = () => inChild('handler', 3, 'site handler alone (no sockets, 200,000 calls)');
  const httpInMemory = () => inChild('http', 5, 'HTTP server fed in memory (no kernel, no client; 50,000 requests)');
  // The server's own CPU per request, pipelined (see pipelinedLoad): alternating, median of the per-round ratios.
  const pipelined = async (port: number, cookie: string) => {
    const got = { off: [] as number[], on: [] as number[] };
    const ratios: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      for (const mode of round % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        const before = await ask(mode);
        const headers: Record<string, string> = mode === 'on' ? { Cookie: cookie } : {};
        await pipelinedLoad({ port, path: '/team/notes', headers, count: pipelinedRequests, connections: 4 });
        got[mode].push(((await ask('cpu')) - before) / pipelinedRequests);
      }
      ratios.push(got.off[round - 1] / got.on[round - 1]);
    }
    const show = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' ');
    console.log(
      `server CPU per request, ${pipelinedRequests.toLocaleString('en')} pipelined requests a run (µs): auth off ${show(got.off)}; signed in ${show(got.on)}; ratio off / signed in, median of ${rounds}: ${median(ratios).toFixed(3)}×\n`,
    );
    return median(ratios);
  };
  try {
    const { url: base, cookie } = await next<ReaderSiteReady>();
    const url = `${base}/team/notes`;
    await compareAnswers(url, cookie, (mode) => ask(mode));
    const run = async (mode: 'off' | 'on', runSeconds: number): Promise<Run> => {
      const before = await ask(mode);
      const r = await runAutocannon({ url, seconds: runSeconds, connections, headers: mode === 'on' ? { cookie } : undefined });
      const after = await ask('cpu');
      if (r.non2xx || r.errors) throw new Error(`${mode}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
      return { rps: r.rps, p99: r.p99, cpuPerRequest: (after - before) / r.answered };
    };
    await run('off', 1);
    await run('on', 1);
    const rows: (string | number)[][] = [];
    const rpsRatios: number[] = [];
    const cpuRatios: number[] = [];
    for (let round = 1; round <= rounds; round++) {
      const order: ('off' | 'on')[] = round % 2 ? ['off', 'on'] : ['on', 'off'];
      const got: Partial<Record<'off' | 'on', Run>> = {};
      for (const mode of order) got[mode] = await run(mode, seconds);
      const { off, on } = got as Record<'off' | 'on', Run>;
      rpsRatios.push(on.rps / off.rps);
      // Throughput a CPU-bound server would have: the inverse ratio of CPU time per request.
      cpuRatios.push(off.cpuPerRequest / on.cpuPerRequest);
      rows.push([
        round,
        load(),
        Math.round(off.rps),
        Math.round(on.rps),
        (on.rps / off.rps).toFixed(3),
        off.cpuPerRequest.toFixed(1),
        on.cpuPerRequest.toFixed(1),
        (off.cpuPerRequest / on.cpuPerRequest).toFixed(3),
        `${off.p99} / ${on.p99}`,
      ]);
    }
    printTable(
      ['round', 'load', 'off req/s', 'signed req/s', 'ratio', 'off CPU µs/req', 'signed CPU µs/req', 'CPU ratio', 'p99 ms off / signed'],
      rows,
    );
    console.log(
      `serving: signed-in / auth off, median of ${rounds} rounds: req/s ${median(rpsRatios).toFixed(3)}×, CPU per request (inverse) ${median(cpuRatios).toFixed(3)}×\n`,
    );
    const pipelinedRatio = await pipelined(Number(new URL(base).port), cookie);
    const http = await httpInMemory();
    return { rps: median(rpsRatios), cpu: median(cpuRatios), pipelined: pipelinedRatio, http, handler: await handlerAlone() };
  } finally {
    child.stdin!.end('stop\n');
    await new Promise((done) => child.once('exit', done));
  }
}

/** Marks a third of the corpus's pages public and a third for one group (the rest need a signed-in reader). */
function markPages(dir: string): number {
  let n = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.mdx')) {
        const mark = n % 3 === 0 ? 'public: true' : n % 3 === 1 ? 'groups: ["oncall"]' : '';
        n++;
        if (mark) writeFileSync(path, readFileSync(path, 'utf8').replace(/^---\n/, `---\n${mark}\n`));
      }
    }
  };
  walk(dir);
  return n;
}

async function benchExport(work: string): Promise<{ wall: number; cpu: number }> {
  const generator = resolve('../shared/bin/gen-corpus.mjs');
  const plainDir = join(work, 'plain');
  const markedDir = join(work, 'marked');
  execFileSync(process.execPath, [generator, plainDir, '1000'], { stdio: 'ignore' });
  execFileSync(process.execPath, [generator, markedDir, '1000'], { stdio: 'ignore' });
  const pages = markPages(markedDir);
  const once = async (dir: string, i: number) => {
    const out = join(work, `out-${i}`);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await renderSite({
      sourceDir: dir,
      out: await openFolderSink(out),
      domain: 'docs.example.com',
      jobId: `b${i}`,
      now: new Date(),
      generatorVersion: 'bench',
    });
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    rmSync(out, { recursive: true, force: true });
    return { ms, cpuMs: (used.user + used.system) / 1000, audiences: result.report.access?.audiences.length ?? 0 };
  };
  await once(plainDir, 0); // warm-up: the first render loads the renderer and highlighter
  const rows: (string | number)[][] = [];
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let round = 1; round <= exportRounds; round++) {
    // Alternate which goes first, so a drift of the machine's load favours neither.
    const first = round % 2 ? await once(plainDir, round * 2) : await once(markedDir, round * 2 + 1);
    const second = round % 2 ? await once(markedDir, round * 2 + 1) : await once(plainDir, round * 2);
    const [plain, marked] = round % 2 ? [first, second] : [second, first];
    wall.push(marked.ms / plain.ms);
    cpu.push(marked.cpuMs / plain.cpuMs);
    rows.push([
      round,
      load(),
      (plain.ms / 1000).toFixed(2),
      (marked.ms / 1000).toFixed(2),
      (marked.ms / plain.ms).toFixed(3),
      (plain.cpuMs / 1000).toFixed(2),
      (marked.cpuMs / 1000).toFixed(2),
      (marked.cpuMs / plain.cpuMs).toFixed(3),
      marked.audiences,
    ]);
  }
  printTable(
    ['round', 'load', 'no marks s', `${pages} marked s`, 'ratio', 'no marks CPU s', 'marked CPU s', 'CPU ratio', 'audiences'],
    rows,
  );
  console.log(
    `export: with per-audience files / without, median of ${exportRounds} rounds: wall ${median(wall).toFixed(3)}×, CPU ${median(cpu).toFixed(3)}×\n`,
  );
  return { wall: median(wall), cpu: median(cpu) };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'enclave-bench-reader-'));
  process.on('exit', () => rmSync(work, { recursive: true, force: true }));
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
  );
  const skip = (process.env.BENCH_ONLY ?? '').trim();
  const serve = skip === 'export' ? null : await benchServing();
  const exported = skip === 'serve' ? null : await benchExport(work);
  const met = (ok: boolean) => (ok ? 'yes' : 'no');
  const rows: (string | number)[][] = [];
  if (serve) {
    rows.push([`serve: signed-in / auth off req/s (${rounds} rounds)`, serve.rps.toFixed(3), '≥ 0.900', met(serve.rps >= 0.9)]);
    rows.push(['serve: auth off / signed-in CPU per request', serve.cpu.toFixed(3), '≥ 0.900', met(serve.cpu >= 0.9)]);
    rows.push(['serve: the same, pipelined (server alone)', serve.pipelined.toFixed(3), '≥ 0.900', met(serve.pipelined >= 0.9)]);
    const httpRatio = serve.http.off / serve.http.on;
    const http = `${serve.http.off.toFixed(2)} → ${serve.http.on.toFixed(2)} µs`;
    rows.push([`serve: HTTP server in memory (${http})`, httpRatio.toFixed(3), '≥ 0.900', met(httpRatio >= 0.9)]);
    const extra = `${serve.handler.off.toFixed(2)} → ${serve.handler.on.toFixed(2)} µs`;
    rows.push(['serve: the site handler alone, off → signed in', extra, '', '']);
  }
  if (exported) {
    rows.push([
      `export: 3 audiences / none, wall (${exportRounds} rounds)`,
      exported.wall.toFixed(3),
      '≤ 1.150',
      met(exported.wall <= 1.15),
    ]);
    rows.push(['export: 3 audiences / none, CPU time', exported.cpu.toFixed(3), '≤ 1.150', met(exported.cpu <= 1.15)]);
  }
  printTable(['measure (same run)', 'median ratio', 'issue target', 'met'], rows);
  console.log(
    `load average at end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}

if (process.argv[2] === '--serve') await serveReaderSite();
else await main();
