#!/usr/bin/env node
// The `enclave` command. It runs the compiled build in dist/ when that is at least as new as
// every file under src/ (`npm install` builds it, see scripts/build-dist.mjs): a call answers in
// a tenth of a second. In a checkout whose dist/ is missing or older than an edit, it runs the
// TypeScript sources through tsx instead, so a stale build never shadows an edit. The image
// ships dist/ without src/ or tsx and always runs the compiled build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const sourcesDir = fileURLToPath(new URL('../src', import.meta.url));
const compiled = fileURLToPath(new URL('../dist/cli/enclave.js', import.meta.url));
const stamp = fileURLToPath(new URL('../dist/.build-stamp', import.meta.url));

function tsxAvailable() {
  try {
    createRequire(import.meta.url).resolve('tsx/esm/api');
    return true;
  } catch {
    return false;
  }
}

/** The newest modification under `dir`, directories included (a deleted file changes its folder). */
function newestUnder(dir) {
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** True when dist/ was built after the last change under src/ (a few ms: ~500 stat calls). */
function compiledIsFresh() {
  try {
    return statSync(stamp).mtimeMs >= newestUnder(sourcesDir);
  } catch {
    return false;
  }
}

let runCli;
if (existsSync(sourcesDir) && !compiledIsFresh() && tsxAvailable()) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ runCli } = await import('../src/cli/enclave.ts'));
} else {
  ({ runCli } = await import(compiled));
}
try {
  process.exitCode = await runCli(process.argv.slice(2), {
    out: process.stdout,
    err: process.stderr,
    env: process.env,
    stdin: process.stdin,
  });
} catch (err) {
  // An unexpected failure is one line for the operator, not a stack trace.
  process.stderr.write(`enclave: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
