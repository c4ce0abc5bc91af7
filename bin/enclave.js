#!/usr/bin/env node
// The `enclave` command. Runs the compiled build when present (the container), otherwise the
// TypeScript sources through tsx (a development checkout).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/cli/enclave.js', import.meta.url));
let runCli;
if (existsSync(compiled)) {
  ({ runCli } = await import(compiled));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ runCli } = await import('../src/cli/enclave.ts'));
}
process.exitCode = await runCli(process.argv.slice(2), { out: process.stdout, err: process.stderr, env: process.env, stdin: process.stdin });
