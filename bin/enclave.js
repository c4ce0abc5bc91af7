#!/usr/bin/env node
// The `enclave` command. In a checkout (src/ and tsx present) it runs the TypeScript sources
// through tsx, so a stale dist/ from an earlier `npm run build` never shadows edits; the image
// ships dist/ without src/ or tsx and runs the compiled build.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const sources = fileURLToPath(new URL('../src/cli/enclave.ts', import.meta.url));
const compiled = fileURLToPath(new URL('../dist/cli/enclave.js', import.meta.url));

function tsxAvailable() {
  try {
    createRequire(import.meta.url).resolve('tsx/esm/api');
    return true;
  } catch {
    return false;
  }
}

let runCli;
if (existsSync(sources) && tsxAvailable()) {
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
