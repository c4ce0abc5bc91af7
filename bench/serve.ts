// npm run bench:serve — the live-site server against nginx (one worker, same extracted files), on
// 127.0.0.1: requests/s and p99 for a typical page, a large asset and a 404; p99 at a fixed
// 2,000 req/s; process start → first 200 from a cached version; activation of a ~50 MB bundle.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import { createServer as createHttpServer } from 'node:http';
import Koa from 'koa';
import { loadConfig } from '../src/config/loadConfig.js';
import { SAMPLE_DOMAIN } from '../src/app/bootstrap/sampleDocs.js';
import { systemClock } from '../src/platform/Clock.js';
import { openDeploymentStore } from '../src/features/deployments/deploymentStore.js';
import { SiteDeployer } from '../src/features/deployments/SiteDeployer.js';
import { createSiteHandler } from '../src/features/deployments/site/createSiteHandler.js';
import { createLogger } from '../src/platform/logging/createLogger.js';
import { openControlStore } from '../src/features/control/ControlStore.js';
import { installBundleVersion } from '../src/features/deployments/installBundleVersion.js';
import { projectRoot } from '../test/helpers/spawnAppliance.js';
import { startTestAppliance } from '../test/helpers/testAppliance.js';
import { makeManifest } from '../test/deploy/helpers/testBundles.js';
import { printTable, runAutocannon, type LoadResult } from './runAutocannon.js';

// `tsx bench/serve.ts --site-handler-only DATA_DIR PORT`: the site handler alone on a bare Koa
// app (no request id, logging, error mapping or helmet), to show what the shared stack costs.
if (process.argv[2] === '--site-handler-only') {
  const [, , , dir, port] = process.argv;
  const config = loadConfig({ env: { ENCLAVE_DATA_DIR: dir, ENCLAVE_LOG_LEVEL: 'silent' } });
  const store = await openDeploymentStore(config.dataDir);
  const control = await openControlStore(config);
  const deployer = await SiteDeployer.open({ config, logger: createLogger('silent'), clock: systemClock, sites: control.sites, store });
  const app = new Koa();
  app.use(createSiteHandler(deployer.live));
  await new Promise<void>((resolve) => createHttpServer(app.callback()).listen(Number(port), '127.0.0.1', resolve));
  await new Promise(() => {}); // serve until killed
}

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const work = mkdtempSync(join(tmpdir(), 'enclave-bench-serve-'));
const dataDir = join(work, 'data');
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

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
  for (const entry of new AdmZip(zipPath).getEntries()) if (!entry.isDirectory && entry.entryName !== '_enclave/manifest.json') files[entry.entryName] = entry.getData();
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

// 2. Start-to-first-200 from the cached version: spawn the real entry point, poll GET /. With a
// build (npm run build), the compiled entry the container runs is measured too.
const compiledEntry = join(projectRoot, 'dist/main.js');
const compiledTimes: number[] = [];
if (existsSync(compiledEntry)) {
  for (let run = 0; run < 3; run++) {
    const port = await freePort();
    const started = performance.now();
    const child = spawn(process.execPath, [compiledEntry], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ENCLAVE_DATA_DIR: dataDir, ENCLAVE_PORT: String(port), ENCLAVE_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    await waitFor200(`http://127.0.0.1:${port}/`, 30_000);
    compiledTimes.push(performance.now() - started);
    await new Promise((r) => (child.on('exit', r), child.kill('SIGTERM')));
  }
  compiledTimes.sort((a, b) => a - b);
}
const startTimes: number[] = [];
let enclave: { child: ChildProcess; url: string } | null = null;
for (let run = 0; run < 3; run++) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ENCLAVE_DATA_DIR: dataDir, ENCLAVE_PORT: String(port), ENCLAVE_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitFor200(`${url}/`, 30_000);
  startTimes.push(performance.now() - started);
  if (run < 2) await new Promise((r) => (child.on('exit', r), child.kill('SIGTERM')));
  else enclave = { child, url };
}
startTimes.sort((a, b) => a - b);

// 3. nginx with one worker serving the same extracted files with the same URL rules.
const nginxPort = await freePort();
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
  client_body_temp_path ${nginxDir}/body; proxy_temp_path ${nginxDir}/proxy; fastcgi_temp_path ${nginxDir}/fastcgi; uwsgi_temp_path ${nginxDir}/uwsgi; scgi_temp_path ${nginxDir}/scgi;
  server {
    listen 127.0.0.1:${nginxPort};
    root ${siteRoot};
    location / { try_files $uri $uri.html $uri/index.html =404; }
    error_page 404 /404.html;
  }
}
`,
);
const nginxCheck = spawnSync('nginx', ['-v']);
if (nginxCheck.error) throw new Error('nginx is not installed (apt-get install -y nginx)');
const nginx = spawn('nginx', ['-c', join(nginxDir, 'nginx.conf'), '-p', nginxDir, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'inherit'] });
children.push(nginx);
const nginxUrl = `http://127.0.0.1:${nginxPort}`;
await waitFor200(`${nginxUrl}/`, 10_000);

const handlerPort = await freePort();
const handlerOnly = spawn(process.execPath, ['--import', 'tsx', 'bench/serve.ts', '--site-handler-only', dataDir, String(handlerPort)], { cwd: projectRoot, stdio: ['ignore', 'ignore', 'inherit'] });
children.push(handlerOnly);
const handlerOnlyUrl = `http://127.0.0.1:${handlerPort}`;
await waitFor200(`${handlerOnlyUrl}/`, 30_000);

const enclaveUrl = enclave!.url;
const rows: [string, LoadResult][] = [];
const run = async (name: string, url: string, rate?: number, headers?: Record<string, string>) => {
  rows.push([name, await runAutocannon({ url, seconds, connections, rate, headers })]);
  console.error(`${name}: done`);
};
// Warm-up: JIT, in-memory file cache, connections.
await runAutocannon({ url: `${enclaveUrl}${targets.page}`, seconds: 2, connections });
await runAutocannon({ url: `${nginxUrl}${targets.page}`, seconds: 2, connections });
await run('enclave page', `${enclaveUrl}${targets.page}`);
await run('nginx   page', `${nginxUrl}${targets.page}`);
await runAutocannon({ url: `${handlerOnlyUrl}${targets.page}`, seconds: 2, connections });
await run('site handler alone on bare Koa, page', `${handlerOnlyUrl}${targets.page}`);
handlerOnly.kill('SIGTERM');
await run('enclave page, Accept-Encoding: br (precompressed)', `${enclaveUrl}${targets.page}`, undefined, { 'Accept-Encoding': 'br, gzip' });
await run(`enclave large asset (${Math.round(largest.size / 1024)} KiB)`, `${enclaveUrl}${targets.asset}`);
await run(`nginx   large asset (${Math.round(largest.size / 1024)} KiB)`, `${nginxUrl}${targets.asset}`);
await run('enclave 404', `${enclaveUrl}${targets.missing}`);
await run('nginx   404', `${nginxUrl}${targets.missing}`);
await run('enclave page @ 2,000 req/s', `${enclaveUrl}${targets.page}`, 2000);
await run('nginx   page @ 2,000 req/s', `${nginxUrl}${targets.page}`, 2000);

// 4. Activation of a ~50 MB bundle through the API, while a page is being served at 500 req/s.
const largeZip = join(work, 'large.zip');
const largeBytes = writeLargeBundle(largeZip, sampleZip);
const during = runAutocannon({ url: `${enclaveUrl}${targets.page}`, seconds: 30, connections: 8, rate: 500 });
const activationStarted = performance.now();
const auth = { Authorization: `Bearer ${adminKey}`, 'Content-Type': 'application/json' };
let record = await (await fetch(`${enclaveUrl}/v1/deployments`, { method: 'POST', headers: auth, body: JSON.stringify({ bundleUrl: largeZip }) })).json();
for (let i = 0; record.status === 'running' && i < 600; i++) {
  await new Promise((r) => setTimeout(r, 100));
  record = await (await fetch(`${enclaveUrl}/v1/deployments/${record.id}`, { headers: auth })).json();
}
const activationMs = performance.now() - activationStarted;
if (record.status !== 'active') throw new Error(`large bundle not activated: ${JSON.stringify(record)}`);
const duringResult = await during;
rows.push(['enclave page @ 500 req/s during the 50 MB activation (30 s window)', duringResult]);

nginx.kill('SIGTERM');
enclave!.child.kill('SIGTERM');

// 5. The longest event-loop stall while the same bundle is verified, extracted and precompressed
// (in this process, nothing else running): what a request could wait behind an activation.
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
const inProcessStarted = performance.now();
await installBundleVersion(largeZip, join(work, 'stall-test'), 'dp_0000000000000001', { maxBundleBytes: 1 << 30, maxEntries: 50_000, maxExtractedBytes: 2 ** 31, maxCompressionRatio: 200 }, null);
const inProcessMs = performance.now() - inProcessStarted;
loop.disable();

const byName = Object.fromEntries(rows);
console.log(`\nbench:serve — ${seconds}s per run, ${connections} connections, 127.0.0.1, node ${process.version}, ${spawnSync('nginx', ['-v'], { encoding: 'utf8' }).stderr.trim()}`);
console.log('enclave: real src/main.ts (tsx), log level warn; nginx: 1 worker, access_log off, sendfile on\n');
printTable(['run', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx'], rows.map(([name, r]) => [name, Math.round(r.rps), r.p50, r.p99, r.errors, r.non2xx]));
const ratio = (a: string, b: string) => (byName[a].rps / byName[b].rps).toFixed(2);
const pageRatio = byName['enclave page'].rps / byName['nginx   page'].rps;
const handlerRatio = byName['site handler alone on bare Koa, page'].rps / byName['nginx   page'].rps;
const p99At2k = byName['enclave page @ 2,000 req/s'].p99;
console.log(`
enclave/nginx req/s: page ${ratio('enclave page', 'nginx   page')} (target ≥ 0.7: ${pageRatio >= 0.7 ? 'met' : 'NOT met'}), large asset ${ratio(`enclave large asset (${Math.round(largest.size / 1024)} KiB)`, `nginx   large asset (${Math.round(largest.size / 1024)} KiB)`)}, 404 ${ratio('enclave 404', 'nginx   404')}
site handler alone on bare Koa / nginx, page: ${handlerRatio.toFixed(2)} (the rest of the gap is the app-wide middleware: request id, request log, error mapping, helmet)
p99 at 2,000 req/s: ${p99At2k} ms (target < 10 ms: ${p99At2k < 10 ? 'met' : 'NOT met'})
start → first 200 from the cached version (tsx src/main.ts): median ${Math.round(startTimes[1])} ms, runs ${startTimes.map((t) => Math.round(t)).join('/')} ms (target < 1000 ms: ${startTimes[1] < 1000 ? 'met' : 'NOT met'})
start → first 200 from the cached version (node dist/main.js): ${compiledTimes.length ? `median ${Math.round(compiledTimes[1])} ms, runs ${compiledTimes.map((t) => Math.round(t)).join('/')} ms (target < 1000 ms: ${compiledTimes[1] < 1000 ? 'met' : 'NOT met'})` : 'not measured (run npm run build first)'}
event loop during an in-process install of the same bundle (${(inProcessMs / 1000).toFixed(2)} s): max stall ${(loop.max / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms
activation of a ${(largeBytes / 1048576).toFixed(1)} MB bundle (${record.fileCount} files, ${(record.extractedBytes / 1048576).toFixed(1)} MB extracted, verify + extract + precompress + fsync + switch): ${(activationMs / 1000).toFixed(2)} s`);
process.exit(0);
