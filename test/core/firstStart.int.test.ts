import { createServer } from 'node:net';
import { cp, mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { prettyLogStream } from '../../src/platform/logging/prettyLogStream.js';
import { runEnclave } from '../helpers/runEnclave.js';
import { projectRoot, runApplianceExpectingFailure, spawnAppliance } from '../helpers/spawnAppliance.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';

test('first start on a busy port: one line naming server.port / ENCLAVE_PORT, exit 1, and no admin key created unseen', async (t) => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.teardown(() => void blocker.close());
  const port = (blocker.address() as { port: number }).port;
  const dataDir = await makeTempDir();
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const failed = await runApplianceExpectingFailure({ ENCLAVE_DATA_DIR: dataDir, ENCLAVE_PORT: String(port) });
  t.is(failed.code, 1);
  t.regex(failed.stderr, /already in use.*server\.port.*ENCLAVE_PORT/);
  t.notRegex(failed.stderr, /^\s+at /m, 'no stack trace');
  t.is(failed.stderr.trim().split('\n').length, 1, failed.stderr);
  const control = JSON.parse(await readFile(join(dataDir, 'control.json'), 'utf8'));
  t.deepEqual(control.adminKeys, [], 'the key is made only once the port is bound, so it is never lost');

  // The next start on a free port creates and prints it, and keeps it in a 0600 file until first use.
  const server = await spawnAppliance({ ENCLAVE_DATA_DIR: dataDir });
  t.teardown(() => void server.child.kill('SIGKILL'));
  const key = /^ENCLAVE_ADMIN_KEY=(\S+)$/m.exec(server.stdout())![1];
  const file = join(dataDir, 'secrets', 'initial-admin-key');
  t.is((await stat(file)).mode & 0o777, 0o600);
  t.regex(await readFile(file, 'utf8'), new RegExp(`^ENCLAVE_ADMIN_KEY=${key}\\nENCLAVE_PROJECT_ID=proj_[0-9a-f]{16}\\n$`));
  t.is((await fetch(`${server.url}/v1/keys`, { headers: { Authorization: `Bearer ${key}` } })).status, 200);
  await waitUntil(
    'the initial key file to be removed after first use',
    async () =>
      !(await stat(file).then(
        () => true,
        () => false,
      )),
    5000,
  );
  t.pass();
});

test('the start banner names the config file, data directory, admin API and site URLs', async (t) => {
  const dataDir = await makeTempDir();
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const configFile = join(dataDir, 'enclave.json');
  await writeFile(configFile, '{}');
  const server = await spawnAppliance({ ENCLAVE_DATA_DIR: dataDir, ENCLAVE_CONFIG: configFile });
  t.teardown(() => void server.child.kill('SIGKILL'));
  await waitUntil('the banner', async () => /sites \(by Host name\)/.test(server.stderr()));
  const banner = server.stderr();
  t.regex(banner, new RegExp(`config file: +${configFile}`));
  t.regex(banner, new RegExp(`data directory: +${dataDir}`));
  t.regex(banner, new RegExp(`admin API: +${server.url}/v1`));
  t.regex(banner, /http:\/\/sample\.enclave\.internal:\d+\//);
  // The dashboard on an origin of its own (issue 28): the banner says where, and it answers there.
  const dashboard = /dashboard: +(http:\/\/127\.0\.0\.1:\d+)\/_enclave\/admin/.exec(banner)?.[1];
  t.truthy(dashboard, banner);
  t.not(dashboard, server.url);
  t.is((await fetch(`${dashboard}/_enclave/admin`)).status, 200);
});

test('--help on every verb prints usage and does nothing else; --version prints the version', async (t) => {
  const dataDir = join(await makeTempDir(), 'never-created');
  t.teardown(() => rm(join(dataDir, '..'), { recursive: true, force: true }));
  const env = { ENCLAVE_DATA_DIR: dataDir, ENCLAVE_PORT: '0' };
  for (const verb of ['serve', 'init', 'keys', 'sites', 'doctor', 'export', 'deploy', 'feedback', 'agent']) {
    // A verb that ignored --help would serve or wait forever: runEnclave's 60 s bound tells, and
    // unlike the 20 s this had, beside CPU hogs (a cold start through tsx) it is not reached.
    const run = await runEnclave([verb, '--help'], env);
    t.is(run.code, 0, `${verb}: ${run.stderr}`);
    t.regex(run.stdout, /usage:/, verb);
  }
  const init = await runEnclave(['init', 'extra', '-h'], env);
  t.is(init.code, 0);
  await t.throwsAsync(stat(dataDir), undefined, 'init --help created nothing');
  const { version } = JSON.parse(await readFile(join(projectRoot, 'package.json'), 'utf8'));
  const v = await runEnclave(['--version'], env);
  t.is(v.stdout, `enclave ${version}\n`);
});

test('bin/enclave.js runs src/ in a checkout even when a stale dist/ exists, and dist/ when there is no src/', async (t) => {
  const root = await makeTempDir('enclave-bin-');
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, 'bin'));
  await cp(join(projectRoot, 'bin', 'enclave.js'), join(root, 'bin', 'enclave.js'));
  await symlink(join(projectRoot, 'node_modules'), join(root, 'node_modules'));
  await symlink(join(projectRoot, 'src'), join(root, 'src'));
  await writeFile(join(root, 'package.json'), '{"type":"module"}');
  await mkdir(join(root, 'dist', 'cli'), { recursive: true });
  await writeFile(
    join(root, 'dist', 'cli', 'enclave.js'),
    "export async function runCli(_a, io) { io.out.write('stale dist\\n'); return 0; }\n",
  );
  const { execFileSync } = await import('node:child_process');
  const fromSrc = execFileSync(process.execPath, [join(root, 'bin', 'enclave.js'), '--version'], { encoding: 'utf8' });
  t.regex(fromSrc, /^enclave \d+\.\d+\.\d+/);
  await rm(join(root, 'src'));
  t.is(
    execFileSync(process.execPath, [join(root, 'bin', 'enclave.js'), '--version'], { encoding: 'utf8' }),
    'stale dist\n',
    'the image (no src/) runs dist/',
  );
});

test('pretty log lines: time, level and message, then fields; errors by message; non-JSON passes through', (t) => {
  let out = '';
  const stream = prettyLogStream({ write: (s: string) => void (out += s) } as never, { color: false });
  stream.write(
    `${JSON.stringify({ level: 30, time: '2026-11-25T12:00:01.234Z', service: 'enclave', msg: 'export completed', jobId: 'se_1', pages: 3 })}\n`,
  );
  stream.write(
    `${JSON.stringify({ level: 50, time: '2026-11-25T12:00:02.000Z', msg: 'boom', err: { type: 'Error', message: 'disk full', stack: 'Error: disk full\n    at x' } })}\n`,
  );
  stream.write('plain\n');
  t.is(out, '12:00:01.234 INFO  export completed jobId=se_1 pages=3\n12:00:02.000 ERROR boom err=disk full\nplain\n');
});

test('serve logs readable lines with logFormat pretty and JSON by default when stdout is not a terminal', async (t) => {
  const dataDir = await makeTempDir();
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const json = await spawnAppliance({ ENCLAVE_DATA_DIR: dataDir, ENCLAVE_LOG_LEVEL: 'info' });
  json.child.kill('SIGTERM');
  await json.exited;
  t.regex(json.stdout(), /^\{"level":30,/m);
  const pretty = await spawnAppliance({ ENCLAVE_DATA_DIR: dataDir, ENCLAVE_LOG_LEVEL: 'info', ENCLAVE_LOG_FORMAT: 'pretty' });
  pretty.child.kill('SIGTERM');
  await pretty.exited;
  t.regex(pretty.stdout(), /^\S*\d\d:\d\d:\d\d\.\d{3}\S* \S*INFO/m);
  t.notRegex(pretty.stdout(), /^\{"level"/m);
});

test('on a terminal (logFormat auto) serve logs readable coloured lines, not JSON', async (t) => {
  const dataDir = await makeTempDir();
  const { spawn } = await import('node:child_process');
  // util-linux `script` gives the CLI a pseudo-terminal for stdout, as an operator's shell would.
  const child = spawn('script', ['-qec', `${process.execPath} bin/enclave.js serve`, '/dev/null'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', HOME: dataDir, ENCLAVE_DATA_DIR: dataDir, ENCLAVE_PORT: '0', ENCLAVE_LOG_LEVEL: 'info' },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // One teardown, in order: the server may still be installing the sample site when the test
  // ends, so its files stop changing only after it is gone; rm retries what a dying writer left.
  t.teardown(async () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    await rm(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  await waitUntil('a log line after the banner', async () => / ready\r?\n[\s\S]*\x1b\[32mINFO /.test(out));
  t.regex(out, /\x1b\[2m\d\d:\d\d:\d\d\.\d{3}\x1b\[0m \x1b\[32mINFO \x1b\[0m /);
  t.notRegex(out, /\{"level":/);
});
