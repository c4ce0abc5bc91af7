import { spawn, spawnSync } from 'node:child_process';
import { copyFile, mkdir, readFile, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { projectRoot } from '../helpers/spawnAppliance.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { freePort } from '../helpers/freePort.js';

/** The first ```sh block under "## Quick start" in the README, line by line. */
async function quickStartLines(): Promise<string[]> {
  const readme = await readFile(join(projectRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('no ```sh block in the README quick start');
  return block.trimEnd().split('\n');
}

/** A fresh clone of the working tree: every file git tracks, and nothing else. */
async function freshClone(): Promise<string> {
  const dir = await makeTempDir('enclave-clone-');
  const { execFileSync } = await import('node:child_process');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: projectRoot,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    await mkdir(join(dir, dirname(file)), { recursive: true });
    await copyFile(join(projectRoot, file), join(dir, file)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') throw err; // deleted in the working tree, not yet committed
    });
  }
  return dir;
}

/**
 * Runs the quick start's lines in bash on a fresh clone, with job control (`set -m`, a terminal)
 * or without it (the lines pasted into a script: `kill %1` then signals npm alone).
 */
async function runQuickStart(t: ExecutionContext, jobControl: boolean): Promise<void> {
  const lines = await quickStartLines();
  t.true(lines[0] === 'npm install', 'it starts with npm install');
  t.false(
    lines.some((l) => /^\s*enclave\b/.test(l)),
    'no bare `enclave` (not on PATH in a checkout)',
  );
  // freePort's port may be taken by another process before the server binds it (a parallel
  // test's connection): the one failure that says so is tried again, on a new clone and port.
  let attempt = await startQuickStart(t, lines, jobControl);
  for (let retry = 0; retry < 3 && attempt.code !== 0 && /the port is already in use/.test(attempt.log); retry++)
    attempt = await startQuickStart(t, lines, jobControl);
  const { port, child, code, out, err, log } = attempt;
  t.is(code, 0, `stdout:\n${out}\nstderr:\n${err}\nstart.log:\n${log}`);
  t.regex(out, /"id":"proj_[0-9a-f]{16}"/, 'the project call answered');
  t.regex(out, /initial admin key/, 'keys list ran against the running server');
  t.regex(out, /"openapi":"3\.1\.0"/, 'the OpenAPI document answered');
  // `kill %1` stopped the server: the port is free again soon after.
  let closed = false;
  for (let i = 0; i < 100 && !closed; i++) {
    closed = await fetch(`http://127.0.0.1:${port}/_enclave/health`).then(
      () => false,
      () => true,
    );
    if (!closed) await new Promise((r) => setTimeout(r, 100));
  }
  t.true(closed, 'the server stopped');
  // Nothing the script started is left: every process of its process group has exited (the
  // server, tsx, the lock holder). An orphan would keep the group alive.
  let orphans = true;
  for (let i = 0; i < 100 && orphans; i++) {
    try {
      process.kill(-child.pid!, 0);
      await new Promise((r) => setTimeout(r, 100));
    } catch {
      orphans = false;
    }
  }
  t.false(orphans, `a process of the quick start outlived it:\n${processesOfGroup(child.pid!)}`);
}

/** Runs the quick start's `lines` (after npm install) in a fresh clone on a free port, to its end. */
async function startQuickStart(t: ExecutionContext, lines: string[], jobControl: boolean) {
  const clone = await freshClone();
  // The server's worker processes may still be writing for a moment after `kill %1`: rm retries.
  t.teardown(() => rm(clone, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 }));
  // `npm install` needs the registry; the clone borrows this checkout's installed tree instead
  // (test/docker installs are checked by the install-hygiene steps, not here).
  await symlink(join(projectRoot, 'node_modules'), join(clone, 'node_modules'));
  const port = await freePort();
  const script = [
    'set -e',
    ...(jobControl ? ['set -m'] : []),
    ...lines.slice(1).map((l) => l.replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`)),
  ].join('\n');
  const child = spawn('bash', ['-c', script], {
    cwd: clone,
    env: { PATH: process.env.PATH ?? '', HOME: clone, ENCLAVE_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  t.teardown(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const log = await readFile(join(clone, 'start.log'), 'utf8').catch(() => '(no start.log)');
  return { port, child, code, out, err, log };
}

/** `ps` lines of the processes in process group `pgid` (for the failure message). */
function processesOfGroup(pgid: number): string {
  return spawnSync('ps', ['-o', 'pid,pgid,args', '-e'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line.trim().split(/\s+/)[1] === String(pgid))
    .join('\n');
}

test('the README quick start runs as written on a fresh clone', (t) => runQuickStart(t, true));

test('the README quick start pasted into a script (no job control) stops the server and leaves no orphan', (t) => runQuickStart(t, false));
