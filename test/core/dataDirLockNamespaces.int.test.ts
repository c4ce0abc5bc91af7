import { spawn, spawnSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { applianceMainArgs, projectRoot, spawnAppliance } from '../helpers/spawnAppliance.js';
import { makeTempDir } from '../helpers/testAppliance.js';

// The README's Docker line runs the CLI in a second container: another PID namespace, where the
// server's pid means nothing (and, in the worst case, another network namespace too). These
// tests put the CLI and a second server in namespaces of their own with unshare(1), as root.
const canUnshare = process.getuid?.() === 0 && spawnSync('unshare', ['--pid', '--fork', 'true']).status === 0;

/** Runs `command` inside fresh namespaces (`--pid --fork`, plus `extra`) and collects its output. */
function inNamespace(
  extra: string[],
  command: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('unshare', ['--pid', '--fork', ...extra, process.execPath, ...command], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ENCLAVE_LOG_LEVEL: 'warn', ENCLAVE_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const cli = (...args: string[]) => [join(projectRoot, 'bin', 'enclave.js'), ...args];

test('from another PID namespace the CLI manages a running server through its API and a second server refuses', async (t) => {
  if (!canUnshare) return t.fail('needs root and unshare(1) to make PID namespaces');
  const dataDir = await makeTempDir('enclave-ns-');
  const server = await spawnAppliance({ ENCLAVE_DATA_DIR: dataDir });
  t.teardown(() => server.child.kill('SIGKILL'));
  const lockFile = join(dataDir, 'enclave.lock');
  const env = { ENCLAVE_DATA_DIR: dataDir };

  const listed = await inNamespace([], cli('keys', 'list'), env);
  t.is(listed.code, 0, listed.stderr);
  t.regex(listed.stdout, /initial admin key/);
  t.truthy(await stat(lockFile), 'the lock file survives a CLI run from another namespace');

  const created = await inNamespace([], cli('keys', 'create', '--name', 'from-a-namespace'), env);
  t.is(created.code, 0, created.stderr);
  const key = /enc_[0-9A-Za-z]{46}/.exec(created.stdout)?.[0];
  if (!key) return t.fail(`no key printed:\n${created.stdout}`);
  const withKey = await fetch(`${server.url}/v1/keys`, { headers: { Authorization: `Bearer ${key}` } });
  t.is(withKey.status, 200, 'the server knows the key: it was made through its API, not behind its back');

  const second = await inNamespace([], applianceMainArgs(), env);
  t.is(second.code, 1, second.stderr);
  t.regex(second.stderr, /Another Enclave process \(pid \d+\) is using the data directory/);
  t.is((await fetch(`${server.url}/_enclave/health`)).status, 200, 'the first server is unaffected');
  t.regex(await readFile(lockFile, 'utf8'), new RegExp(`^${server.child.pid}\\n${server.url}`), 'the lock still names the server');
});

test('a CLI that cannot reach the server holding the lock refuses to write and changes nothing', async (t) => {
  if (!canUnshare) return t.fail('needs root and unshare(1) to make PID and network namespaces');
  const dataDir = await makeTempDir('enclave-ns-');
  const server = await spawnAppliance({ ENCLAVE_DATA_DIR: dataDir });
  t.teardown(() => server.child.kill('SIGKILL'));
  const before = await readFile(join(dataDir, 'control.json'), 'utf8');
  // A network namespace of its own: the server's loopback address is not this one's, as in a
  // second container.
  const created = await inNamespace(['--net'], cli('keys', 'create', '--name', 'elsewhere'), { ENCLAVE_DATA_DIR: dataDir });
  t.not(created.code, 0);
  t.regex(created.stderr, /a server \(pid \d+\) owns .* but does not answer at http:\/\/127\.0\.0\.1:\d+ from here/);
  t.regex(created.stderr, /Nothing was changed/);
  t.notRegex(created.stdout, /enc_/);
  t.is(await readFile(join(dataDir, 'control.json'), 'utf8'), before, 'the store was not written behind the server');
  const docs = join(projectRoot, 'examples', 'sample-docs');
  const sites = await inNamespace(['--net'], cli('sites', 'add', '--domain', 'x.test', '--source', docs), { ENCLAVE_DATA_DIR: dataDir });
  t.not(sites.code, 0);
  t.regex(sites.stderr, /does not answer at .* from here/);
  t.is(await readFile(join(dataDir, 'control.json'), 'utf8'), before);
});
