#!/usr/bin/env node
// Compiles native/enclave-sandbox.c (the Landlock launcher agents run in) to build/enclave-sandbox.
// Run by `npm run build`, `npm test` and the tests that need it; does nothing when the binary is
// newer than its source. Without a C compiler it installs gcc when root (Debian), else it says why
// and exits 0: the appliance then runs agents unsandboxed and warns (agent.sandbox "auto").
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = join(root, 'native', 'enclave-sandbox.c');
const target = join(root, 'build', 'enclave-sandbox');

/** True when `cmd` runs (found on PATH). */
function has(cmd) {
  return spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;
}

if (existsSync(target) && statSync(target).mtimeMs >= statSync(source).mtimeMs) process.exit(0);

if (!has('gcc')) {
  if (process.getuid?.() === 0 && has('apt-get')) {
    console.error('build-sandbox: gcc is missing; installing gcc and libc6-dev with apt-get');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'gcc', 'libc6-dev']]) {
      if (spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env }).status !== 0) {
        console.error(`build-sandbox: apt-get ${args[0]} failed; the agent sandbox is not built`);
        process.exit(0);
      }
    }
  } else {
    console.error(
      'build-sandbox: no gcc (install gcc and libc6-dev, or run as root to have them installed); the agent sandbox is not built and agents run unsandboxed',
    );
    process.exit(0);
  }
}

mkdirSync(join(root, 'build'), { recursive: true });
// Compiled beside the target and renamed: two test processes building at once never see half a file.
const partial = `${target}.${process.pid}.tmp`;
const cc = spawnSync('gcc', ['-O2', '-Wall', '-Wextra', '-o', partial, source], { stdio: 'inherit' });
if (cc.status !== 0) {
  rmSync(partial, { force: true });
  console.error('build-sandbox: compiling native/enclave-sandbox.c failed');
  process.exit(1);
}
renameSync(partial, target);
