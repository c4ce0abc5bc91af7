#!/usr/bin/env node
// Runs the ava suite and ends with one plain `N passed, N failed` line that CI can read.
// Browser tests need Debian's Chromium: it is installed first when missing (as root).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPILED_DIR } from './ava-suite.config.mjs';
import { buildTestJs } from './build-test-js.mjs';
import { readTestCpu, childrenCpuSeconds } from './testCpuReport.mjs';
import { createTestFileSpans } from './testFileSpans.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args.splice(onlyAt, 2)[1] : null;
/** Takes `name` out of the arguments; true when it was there. */
function flag(name) {
  const at = args.indexOf(name);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
}
// --tsx: run the .ts files through tsx, as `npx ava` does, instead of compiling them first.
const fromSources = flag('--tsx');
// --docker: the Docker build replay alone (`npm run test:docker`); every other run leaves it out.
const docker = flag('--docker');
// Tiers, named by the file suffix (see docs/architecture.md, "Tests"):
//   --unit     *.unit.test.ts     hermetic: in-process, no server, browser, child process,
//                                 ../shared or wall clock (a private temp dir is fine)
//   --int      *.int.test.ts      servers on port 0, child processes, threads, ../shared
//   --browser  *.browser.test.ts  real Chromium
// Several may be given; none runs every tier.
const TIERS = ['unit', 'int', 'browser'];
const tiers = TIERS.filter((tier) => {
  const at = args.indexOf(`--${tier}`);
  if (at < 0) return false;
  args.splice(at, 1);
  return true;
});
const needs = (tier) => tiers.length === 0 || tiers.includes(tier);

// The agent sandbox launcher (native/enclave-sandbox.c): agent tests run agents inside it.
if (needs('int')) spawnSync(process.execPath, ['scripts/build-sandbox.mjs'], { cwd: root, stdio: 'inherit' });

// The ssh git-source tests run a real sshd (test/helpers/sshGitServer.ts): Debian's, installed when missing.
if (needs('int') && spawnSync('bash', ['scripts/ensure-sshd.sh'], { cwd: root, stdio: 'inherit' }).status !== 0) {
  console.error('warning: sshd could not be installed; the ssh git-source tests will fail');
}

if (needs('browser')) {
  const chromium = spawnSync('bash', ['scripts/ensure-chromium.sh'], { cwd: root, stdio: 'inherit' });
  if (chromium.status !== 0) console.error('warning: chromium could not be installed; browser tests will fail');
}

// The suite runs compiled (scripts/build-test-js.mjs): without tsx every test file, export
// worker, thread and child appliance starts about a second of CPU sooner.
if (!fromSources) {
  const started = performance.now();
  const count = buildTestJs();
  console.log(`test: ${count} TypeScript files compiled to ${COMPILED_DIR}/ in ${Math.round(performance.now() - started)} ms`);
}
/** A test file or folder named as in the sources (test/…), as this run has it. */
const asRun = (path) => (fromSources ? path : `${COMPILED_DIR}/${path.replace(/\.ts$/, '.js')}`);
const ext = fromSources ? 'ts' : 'js';
const suffixes = tiers.length === 0 ? ['*'] : tiers;
const under = asRun(only ?? 'test');
const files = tiers.length === 0 && !only ? [] : suffixes.map((tier) => `${under}/**/*.${tier}.test.${ext}`);
// Test files named on the command line, as in the sources (`npm test -- test/x.int.test.ts`).
for (let i = 0; i < args.length; i++) if (/^test\/.*\.test\.ts$/.test(args[i])) args[i] = asRun(args[i]);
// ava's own reporter, not TAP: its TAP writer dies on a failure whose details hold `undefined`
// (supertap's YAML dump), which ended whole runs early.
// scripts/ava-suite.config.mjs: package.json's ava settings, with the longest files started first.
const avaArgs = ['--config', 'scripts/ava-suite.config.mjs', ...files, ...args];
// Every temp directory the run makes (data dirs with keys and secrets, sites, bundles, browser
// profiles) goes under one directory of its own, removed when the run ends, however it ends:
// a test that forgets its teardown, or a worker that crashes, can't leave them in /tmp.
const runTmp = mkdtempSync(join(tmpdir(), 'enclave-test-run-'));
// Traversable but not listable: agent tests run their agent as another user (agent.runAsUser)
// from a test folder inside, which that user must be able to reach by name.
chmodSync(runTmp, 0o711);
const removeRunTmp = () => rmSync(runTmp, { recursive: true, force: true, maxRetries: 3 });
// tsx keeps its compile cache in <tmpdir>/tsx-<uid>; link the usual one in, so every run does not
// start cold (removing the run directory removes the link, not the cache).
const tsxCache = `tsx-${process.getuid?.() ?? 0}`;
mkdirSync(join(tmpdir(), tsxCache), { recursive: true, mode: 0o700 });
symlinkSync(join(tmpdir(), tsxCache), join(runTmp, tsxCache));
// Each test file's worker notes the CPU it burnt here (scripts/testCpuMeter.mjs).
const cpuLog = join(runTmp, 'test-cpu.jsonl');
const child = spawn(process.execPath, ['node_modules/ava/entrypoints/cli.mjs', ...avaArgs], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: {
    ...process.env,
    TMPDIR: runTmp,
    ENCLAVE_TEST_CPU_LOG: cpuLog,
    ENCLAVE_TEST_FROM: fromSources ? 'ts' : 'js',
    ENCLAVE_TEST_DOCKER: docker ? '1' : '0',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    child.kill(signal);
    child.once('close', () => {
      removeRunTmp();
      process.exit(1);
    });
  });
}
let passed = 0;
let failed = 0;
let skipped = 0;
let buffer = '';
const spans = createTestFileSpans();
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  buffer += chunk;
  const lines = buffer.split('\n');
  buffer = lines.pop() ?? '';
  for (const line of lines) {
    count(line);
    spans.record(line, performance.now());
  }
});
/** Counts ✔ lines as passes, and failures and skips from ava's closing summary ("1 test failed", "2 uncaught exceptions", …). */
function count(line) {
  if (/^\s*✔ /.test(line)) {
    passed++;
    return;
  }
  const m =
    /^\s*(\d+) (tests? failed|known failures?|tests? skipped|tests? todo|uncaught exceptions?|unhandled rejections?|tests? remaining)/.exec(
      line,
    );
  if (!m) return;
  if (m[2].includes('skipped') || m[2].includes('todo')) skipped += Number(m[1]);
  else failed += Number(m[1]);
}
child.on('close', (code) => {
  if (buffer) count(buffer);
  // ava exits non-zero for failures it reports outside a test line too (a crashed file, a timeout).
  if (code !== 0 && failed === 0) failed = 1;
  const cpu = readTestCpu(cpuLog);
  removeRunTmp();
  // ENCLAVE_TEST_TIMES=FILE keeps every file's CPU and span as JSON, for tuning beyond the top ten.
  if (process.env.ENCLAVE_TEST_TIMES) {
    const times = { cpu: cpu.files, spans: spans.longest(Number.POSITIVE_INFINITY) };
    writeFileSync(process.env.ENCLAVE_TEST_TIMES, `${JSON.stringify(times, null, 1)}\n`);
  }
  // Where the time went: the files to start first next time (scripts/ava-suite.config.mjs).
  const longest = spans.longest(10);
  if (longest.length > 1) {
    console.log('\nlongest test files (first test start to last test end):');
    for (const [file, seconds] of longest) console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${file}`);
  }
  // And what it cost: CPU is what a loaded 2-core machine runs short of, not wall time.
  if (cpu.files.length > 1) {
    console.log("\nmost CPU-hungry test files (each file's process and its children, user + system):");
    for (const { file, seconds } of cpu.files.slice(0, 10)) console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${file}`);
    console.log(
      `CPU: ${childrenCpuSeconds().toFixed(0)} s in all (test files ${cpu.total.toFixed(0)} s) over ${(performance.now() / 1000).toFixed(0)} s of wall time`,
    );
  }
  console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(code ?? 1);
});
