// npm run bench:serve — the live-site server against nginx (one worker, same extracted files, gzip
// on), on 127.0.0.1 with 10 connections: requests/s and p99 of a typical page uncompressed and with
// Accept-Encoding: gzip (Enclave's precompressed file vs nginx's on-the-fly gzip), as the medians of
// BENCH_ROUNDS (5) alternating rounds of 4 s (a ratio per round: the machine may be shared), plus
// a large asset and a 404. nginx is installed from Debian
// when missing (as root). BENCH_FULL=1 adds p99 at a fixed 2,000 req/s, process start → first 200
// from a cached version, and the activation of a ~50 MB bundle under load.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import { SAMPLE_DOMAIN } from '../src/app/bootstrap/sampleDocs.js';
import { installBundleVersion } from '../src/features/deployments/installBundleVersion.js';
import { projectRoot } from '../test/helpers/spawnAppliance.js';
import { startTestAppliance } from '../test/helpers/testAppliance.js';
import { makeManifest } from '../test/deploy/helpers/testBundles.js';
import { printTable, runAutocannon, type LoadResult } from './runAutocannon.js';
import { freePort } from '../test/helpers/freePort.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const full = process.env.BENCH_FULL === '1';
const work = mkdtempSync(join(tmpdir(), 'enclave-bench-serve-'));
const dataDir = join(work, 'data');
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

async function waitFor200(url: string, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`no 200 from ${url} within ${timeoutMs} ms`);
}

/** The files of a bundle zip, manifest left out. */
function bundleFiles(zipPath: string): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  for (const entry of new AdmZip(zipPath).getEntries())
    if (!entry.isDirectory && entry.entryName !== '_enclave/manifest.json') files[entry.entryName] = entry.getData();
  return files;
}

/** Writes `files` as a bundle with a fresh manifest; returns the zip's size. */
function writeBundleZip(path: string, files: Record<string, Buffer>, version: string): number {
  const zip = new AdmZip();
  for (const [name, data] of Object.entries(files)) zip.addFile(name, data);
  zip.addFile('_enclave/manifest.json', makeManifest(files, { version, domain: SAMPLE_DOMAIN }));
  zip.writeZip(path);
  return statSync(path).size;
}

/** A ~50 MB bundle: the sample site plus 1,500 text pages and 40 MB of images (incompressible). */
function writeLargeBundle(path: string, sampleZip: string): number {
  const files = bundleFiles(sampleZip);
  for (let i = 0; i < 1500; i++) {
    const words = Array.from({ length: 2500 }, (_, j) => `word${(i * 31 + j * 7) % 997}`).join(' ');
    files[`bulk/page-${i}.html`] = Buffer.from(`<!doctype html><html><body><main><h1>Page ${i}</h1><p>${words}</p></main></body></html>`);
  }
  for (let i = 0; i < 200; i++) files[`images/photo-${i}.png`] = randomBytes(200 * 1024);
  return writeBundleZip(path, files, 'bench-large');
}

// 1. A real export of the sample docs plus one large script (the Mermaid library, as a bundle
// that uses diagrams carries), deployed into a data directory (in-process, then closed).
console.error('exporting the sample docs and deploying them…');
const setup = await startTestAppliance({ dataDir });
const built = await setup.features.exports.exportAndBundle(SAMPLE_DOMAIN);
const sampleZip = join(work, 'sample.zip');
copyFileSync(built.zipPath, sampleZip);
const largeScript = readFileSync(join(projectRoot, 'node_modules/mermaid/dist/mermaid.min.js'));
const largeName = `mermaid.${createHash('sha256').update(largeScript).digest('hex').slice(0, 10)}.js`;
const benchZip = join(work, 'bench.zip');
writeBundleZip(benchZip, { ...bundleFiles(sampleZip), [`_assets/${largeName}`]: largeScript }, built.version);
await setup.features.deployments.activateBundleFile(benchZip, { source: 'bench' });
const adminKey = setup.key;
const activeId = (await (await setup.api('/v1/deployments')).json()).active.id as string;
await setup.close();
const siteRoot = join(dataDir, 'site', 'versions', activeId, 'files');
console.error(`bundle ${built.version}: ${statSync(benchZip).size} bytes`);

// The pages and assets to request: a mid-sized page and the largest asset of the real bundle.
const pageFile = 'quickstart.html';
const largest = { name: largeName, size: largeScript.length };
const targets = { page: '/quickstart', asset: `/_assets/${largest.name}`, missing: '/no/such/page' };
console.error(`page ${pageFile} (${statSync(join(siteRoot, pageFile)).size} B), asset ${largest.name} (${largest.size} B)`);

// 2. Start-to-first-200 from the cached version (BENCH_FULL): spawn the real entry point, poll
// GET /. With a build (npm run build), the compiled entry the container runs is measured too. The
// last start of src/main.ts stays up for the load runs.
const startEnclave = (entry: string[], port: number) => {
  const child = spawn(process.execPath, entry, {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ENCLAVE_DATA_DIR: dataDir,
      ENCLAVE_PORT: String(port),
      ENCLAVE_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
};
const stopChild = (child: ChildProcess) =>
  new Promise((r) => {
    child.on('exit', r);
    child.kill('SIGTERM');
  });
const compiledEntry = join(projectRoot, 'dist/main.js');
const compiledTimes: number[] = [];
const startTimes: number[] = [];
let enclave: { child: ChildProcess; url: string } | null = null;
const startRuns = full ? 3 : 1;
for (const [entry, times] of [
  ...(full && existsSync(compiledEntry) ? [[[compiledEntry], compiledTimes] as const] : []),
  [['--import', 'tsx', 'src/main.ts'], startTimes] as const,
]) {
  for (let run = 0; run < startRuns; run++) {
    const port = await freePort();
    const started = performance.now();
    const child = startEnclave([...entry], port);
    const url = `http://127.0.0.1:${port}`;
    await waitFor200(`${url}/`, 30_000);
    times.push(performance.now() - started);
    if (times === startTimes && run === startRuns - 1) enclave = { child, url };
    else await stopChild(child);
  }
  times.sort((a, b) => a - b);
}

// 3. nginx with one worker serving the same extracted files with the same URL rules, gzip on;
// a second server of the same worker also sends every response header Enclave adds to a page
// (security headers, cache policy, request id), so each client parses a response of the same shape.
const nginxPort = await freePort();
const nginxSameHeadersPort = await freePort();
const sameHeaders = await enclaveHeaderDirectives(`${enclave!.url}${targets.page}`);
const nginxDir = join(work, 'nginx');
mkdirSync(nginxDir, { recursive: true });
writeFileSync(
  join(nginxDir, 'nginx.conf'),
  `${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${nginxDir}/nginx.pid;
error_log ${nginxDir}/error.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  gzip on;
  gzip_types text/css application/javascript text/plain application/json image/svg+xml;
  client_body_temp_path ${nginxDir}/body; proxy_temp_path ${nginxDir}/proxy; fastcgi_temp_path ${nginxDir}/fastcgi; uwsgi_temp_path ${nginxDir}/uwsgi; scgi_temp_path ${nginxDir}/scgi;
  server {
    listen 127.0.0.1:${nginxPort};
    root ${siteRoot};
    location / { try_files $uri $uri.html $uri/index.html =404; }
    error_page 404 /404.html;
  }
  server {
    listen 127.0.0.1:${nginxSameHeadersPort};
    root ${siteRoot};
    etag on;
${sameHeaders}
    location / { try_files $uri $uri.html $uri/index.html =404; }
  }
}
`,
);
ensureNginx();
const nginx = spawn('nginx', ['-c', join(nginxDir, 'nginx.conf'), '-p', nginxDir, '-g', 'daemon off;'], {
  stdio: ['ignore', 'ignore', 'inherit'],
});
children.push(nginx);
const nginxUrl = `http://127.0.0.1:${nginxPort}`;
const nginxSameUrl = `http://127.0.0.1:${nginxSameHeadersPort}`;
await waitFor200(`${nginxUrl}/`, 10_000);
await waitFor200(`${nginxSameUrl}/`, 10_000);

// The floor of any Node server on this machine: node:http alone answering the same page bytes
// from memory with a minimal header set, in its own process. Its ratio to nginx bounds what the
// appliance (one Node thread) can reach here.
const plainPort = await freePort();
const plainNode = spawn(
  process.execPath,
  [
    '-e',
    `const b=require('fs').readFileSync(${JSON.stringify(join(siteRoot, pageFile))});require('http').createServer((q,r)=>{r.writeHead(200,['Content-Type','text/html; charset=utf-8','Content-Length',String(b.length),'ETag','"x"']);r.end(b)}).listen(${plainPort},'127.0.0.1')`,
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);
children.push(plainNode);
const plainUrl = `http://127.0.0.1:${plainPort}`;
await waitFor200(`${plainUrl}/`, 10_000);

const enclaveUrl = enclave!.url;
const rows: [string, LoadResult][] = [];
const run = async (name: string, url: string, rate?: number, headers?: Record<string, string>) => {
  const result = await runAutocannon({ url, seconds, connections, rate, headers });
  rows.push([name, result]);
  console.error(`${name}: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms`);
  return result;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
// Warm-up: JIT, in-memory file cache, connections.
const gzip = { 'Accept-Encoding': 'gzip' };
for (const url of [enclaveUrl, nginxUrl]) {
  await runAutocannon({ url: `${url}${targets.page}`, seconds: 2, connections });
  await runAutocannon({ url: `${url}${targets.page}`, seconds: 1, connections, headers: gzip });
}
// Alternating rounds, the order flipped each round, so drift in the machine's load (it is shared)
// hits both servers alike; each ratio is taken within its round.
const plainRatios: number[] = [];
const gzipRatios: number[] = [];
const plainP99: number[] = [];
const floorRatios: number[] = [];
const sameHeaderRatios: number[] = [];
for (let round = 1; round <= rounds; round++) {
  const order = round % 2 ? ['enclave', 'nginx'] : ['nginx', 'enclave'];
  const got: Record<string, LoadResult> = {};
  for (const who of order)
    got[who] = await run(`${who.padEnd(7)} page, round ${round}`, `${who === 'enclave' ? enclaveUrl : nginxUrl}${targets.page}`);
  for (const who of order)
    got[`${who} gzip`] = await run(
      `${who.padEnd(7)} page gzip, round ${round}`,
      `${who === 'enclave' ? enclaveUrl : nginxUrl}${targets.page}`,
      undefined,
      gzip,
    );
  const floor = await run(`node:http alone, page, round ${round}`, `${plainUrl}${targets.page}`);
  const same = await run(`nginx with Enclave's headers, page, round ${round}`, `${nginxSameUrl}${targets.page}`);
  plainRatios.push(got.enclave.rps / got.nginx.rps);
  sameHeaderRatios.push(got.enclave.rps / same.rps);
  floorRatios.push(floor.rps / got.nginx.rps);
  gzipRatios.push(got['enclave gzip'].rps / got['nginx gzip'].rps);
  plainP99.push(got.enclave.p99);
}
const assetName = `large asset (${Math.round(largest.size / 1024)} KiB)`;
const asset = [
  await run(`enclave ${assetName}`, `${enclaveUrl}${targets.asset}`),
  await run(`nginx   ${assetName}`, `${nginxUrl}${targets.asset}`),
];
const missing = [await run('enclave 404', `${enclaveUrl}${targets.missing}`), await run('nginx   404', `${nginxUrl}${targets.missing}`)];
const at2k = full
  ? [
      await run('enclave page @ 2,000 req/s', `${enclaveUrl}${targets.page}`, 2000),
      await run('nginx   page @ 2,000 req/s', `${nginxUrl}${targets.page}`, 2000),
    ]
  : null;

// 4. Activation of a ~50 MB bundle through the API, while a page is being served at 500 req/s (BENCH_FULL).
let activation: { ms: number; bytes: number; record: { fileCount: number; extractedBytes: number } } | null = null;
let stall: { ms: number; max: number; p99: number } | null = null;
if (full) {
  const largeZip = join(work, 'large.zip');
  const largeBytes = writeLargeBundle(largeZip, sampleZip);
  const during = runAutocannon({ url: `${enclaveUrl}${targets.page}`, seconds: 30, connections: 8, rate: 500 });
  const activationStarted = performance.now();
  const auth = { Authorization: `Bearer ${adminKey}`, 'Content-Type': 'application/json' };
  let record = await (
    await fetch(`${enclaveUrl}/v1/deployments`, { method: 'POST', headers: auth, body: JSON.stringify({ bundleUrl: largeZip }) })
  ).json();
  for (let i = 0; record.status === 'running' && i < 600; i++) {
    await new Promise((r) => setTimeout(r, 100));
    record = await (await fetch(`${enclaveUrl}/v1/deployments/${record.id}`, { headers: auth })).json();
  }
  const ms = performance.now() - activationStarted;
  if (record.status !== 'active') throw new Error(`large bundle not activated: ${JSON.stringify(record)}`);
  rows.push(['enclave page @ 500 req/s during the 50 MB activation (30 s window)', await during]);
  activation = { ms, bytes: largeBytes, record };
  // 5. The longest event-loop stall while the same bundle is verified, extracted and precompressed
  // (in this process, nothing else running): what a request could wait behind an activation.
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const inProcessStarted = performance.now();
  await installBundleVersion(
    largeZip,
    join(work, 'stall-test'),
    'dp_0000000000000001',
    { maxBundleBytes: 1 << 30, maxEntries: 50_000, maxExtractedBytes: 2 ** 31, maxCompressionRatio: 200 },
    null,
  );
  stall = { ms: performance.now() - inProcessStarted, max: loop.max / 1e6, p99: loop.percentile(99) / 1e6 };
  loop.disable();
}
nginx.kill('SIGTERM');
plainNode.kill('SIGTERM');
enclave!.child.kill('SIGTERM');

const plain = median(plainRatios);
const gz = median(gzipRatios);
const p99 = median(plainP99);
console.log(
  `\nbench:serve — ${seconds}s per run, ${connections} connections, ${rounds} rounds, 127.0.0.1, node ${process.version}, ${spawnSync('nginx', ['-v'], { encoding: 'utf8' }).stderr.trim()}`,
);
console.log('enclave: real src/main.ts (tsx), log level warn; nginx: 1 worker, access_log off, sendfile on, gzip on (level 1)\n');
printTable(
  ['run', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx'],
  rows.map(([name, r]) => [name, Math.round(r.rps), r.p50, r.p99, r.errors, r.non2xx]),
);
console.log(`
enclave/nginx req/s, page uncompressed: median ${plain.toFixed(2)} (rounds ${plainRatios.map((r) => r.toFixed(2)).join('/')}; target ≥ 0.8: ${plain >= 0.8 ? 'met' : 'NOT met'})
enclave/nginx req/s, page with Accept-Encoding: gzip (precompressed vs on-the-fly): median ${gz.toFixed(2)} (rounds ${gzipRatios.map((r) => r.toFixed(2)).join('/')})
enclave/nginx sending the same response headers, req/s, page uncompressed: median ${median(sameHeaderRatios).toFixed(2)} (rounds ${sameHeaderRatios.map((r) => r.toFixed(2)).join('/')})
node:http alone (same bytes from memory, 3 headers)/nginx req/s, page: median ${median(floorRatios).toFixed(2)} (rounds ${floorRatios.map((r) => r.toFixed(2)).join('/')}): the ceiling of one Node thread here
enclave p99, page uncompressed: median ${p99} ms (target < 5 ms: ${p99 < 5 ? 'met' : 'NOT met'})
enclave/nginx req/s: ${assetName} ${(asset[0].rps / asset[1].rps).toFixed(2)}, 404 ${(missing[0].rps / missing[1].rps).toFixed(2)}`);
if (at2k) console.log(`p99 at 2,000 req/s: enclave ${at2k[0].p99} ms, nginx ${at2k[1].p99} ms`);
console.log(`start → first 200 from the cached version (tsx src/main.ts): ${startTimes.map((t) => Math.round(t)).join('/')} ms`);
if (compiledTimes.length)
  console.log(`start → first 200 from the cached version (node dist/main.js): ${compiledTimes.map((t) => Math.round(t)).join('/')} ms`);
if (stall)
  console.log(
    `event loop during an in-process install of the same bundle (${(stall.ms / 1000).toFixed(2)} s): max stall ${stall.max.toFixed(1)} ms, p99 ${stall.p99.toFixed(1)} ms`,
  );
if (activation)
  console.log(
    `activation of a ${(activation.bytes / 1048576).toFixed(1)} MB bundle (${activation.record.fileCount} files, ${(activation.record.extractedBytes / 1048576).toFixed(1)} MB extracted): ${(activation.ms / 1000).toFixed(2)} s`,
  );
process.exit(0);

/**
 * nginx `add_header` lines for every header Enclave sends with `url` that nginx does not make
 * itself (X-Request-Id becomes nginx's own $request_id).
 */
async function enclaveHeaderDirectives(url: string): Promise<string> {
  const res = await fetch(url, { headers: { 'Accept-Encoding': 'identity' } });
  await res.arrayBuffer();
  const own = new Set([
    'content-type',
    'content-length',
    'content-encoding',
    'etag',
    'date',
    'connection',
    'keep-alive',
    'accept-ranges',
    'last-modified',
  ]);
  const lines: string[] = [];
  res.headers.forEach((value, name) => {
    if (own.has(name)) return;
    const sent = name === 'x-request-id' ? '$request_id' : `"${value.replace(/"/g, '\\"')}"`;
    lines.push(`    add_header ${name} ${sent} always;`);
  });
  return lines.join('\n');
}

/** nginx from Debian when it is missing: installed as root (loopback use only), else a clear stop. */
function ensureNginx(): void {
  if (!spawnSync('nginx', ['-v']).error) return;
  if (process.getuid?.() !== 0) throw new Error('nginx is not installed; as root: apt-get update && apt-get install -y nginx');
  console.error('installing nginx from Debian (apt-get)…');
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'nginx']]) {
    const result = spawnSync('apt-get', args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: 600_000,
    });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${result.status})`);
  }
}
