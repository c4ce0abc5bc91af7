#!/usr/bin/env node
// Runs the ava suite and ends with one plain `N passed, N failed` line that CI can read.
// Browser tests need Debian's Chromium: it is installed first when missing (as root).
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args.splice(onlyAt, 2)[1] : null;
// The fast tier: files named *.unit.test.ts start no server, browser or child process.
const unitAt = args.indexOf('--unit');
const unit = unitAt >= 0 ? args.splice(unitAt, 1).length > 0 : false;

if (!unit) {
  const chromium = spawnSync('bash', ['scripts/ensure-chromium.sh'], { cwd: root, stdio: 'inherit' });
  if (chromium.status !== 0) console.error('warning: chromium could not be installed; browser tests will fail');
}

const files = unit ? ['test/**/*.unit.test.ts'] : only ? [`${only}/**/*.test.ts`] : [];
const avaArgs = ['--tap', ...files, ...args];
const child = spawn(process.execPath, ['node_modules/ava/entrypoints/cli.mjs', ...avaArgs], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
let passed = 0;
let failed = 0;
let skipped = 0;
let buffer = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  buffer += chunk;
  const lines = buffer.split('\n');
  buffer = lines.pop() ?? '';
  for (const line of lines) count(line);
});
function count(line) {
  if (/^ok \d+/.test(line)) {
    if (/# SKIP/i.test(line)) skipped++;
    else passed++;
  } else if (/^not ok \d+/.test(line)) {
    if (/# TODO/i.test(line)) skipped++;
    else failed++;
  }
}
child.on('close', (code) => {
  if (buffer) count(buffer);
  // ava exits non-zero for failures it reports outside a test line too (a crashed file, a timeout).
  if (code !== 0 && failed === 0) failed = 1;
  console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(code ?? 1);
});
