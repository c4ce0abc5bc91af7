import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, chown, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { planAgentSandbox } from '../../src/features/agent/planAgentSandbox.js';
import { projectRoot, spawnAppliance } from '../helpers/spawnAppliance.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';
import {
  apiOfSpawned,
  buildSandboxLauncher,
  git,
  makeDocsRemote,
  runJob,
  startGitHttpServer,
  writeAgentScript,
} from '../agent/agentFixture.js';

// A server that is not root (the image's uid 10001) has no PID namespace for its agents, and a
// process that calls setsid() and clears its environment (`setsid env -i`) escapes both the
// process group and the /proc scan for the job id. The launcher's own process accounting
// (a child subreaper that kills every descendant) is what ends it; these tests run it for real.

const SERVER_UID = 10001;
const TOKEN = 'deploy-token-d41e';

/** An agent that leaves a `setsid env -i` grandchild running, with its host pid in escaped.pid (pushed with the change). */
const LEAVE_ONE_BEHIND = [
  `setsid env -i /bin/bash -c 'read -r -a s < /proc/self/stat; echo "\${s[0]}" > escaped.pid.tmp; mv escaped.pid.tmp escaped.pid; exec sleep 300' < /dev/null > /dev/null 2>&1 &`,
  'while [ ! -s escaped.pid ]; do sleep 0.05; done',
  'echo "Edited by the agent." >> index.mdx',
].join('\n');

/** True while `pid` is a live (non-zombie) process. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]);
  } catch {
    return false;
  }
}

/** True (with the reason logged) when this process cannot start a server as another user. */
function skipUnlessRoot(t: ExecutionContext): boolean {
  if (process.getuid?.() === 0) return false;
  t.log('SKIPPED: needs root, to start the server as uid 10001 the way the image does');
  t.pass();
  return true;
}

/** Runs the server as uid 10001 with `sandbox`, one job of `body`, and returns the job, what it pushed and the server's stderr. */
async function runAsNonRootServer(t: ExecutionContext, sandbox: 'auto' | 'off', body: string) {
  const { dir } = await makeDocsRemote(t);
  const gitBase = await startGitHttpServer(t, dir, 'enclave-bot', TOKEN);
  const repository = `${gitBase.replace('http://', `http://enclave-bot:${TOKEN}@`)}/remote.git`;
  const bin = await makeTempDir('enclave-agent-bin-');
  await chmod(bin, 0o755);
  const agent = await writeAgentScript(bin, 'leave.sh', body);
  const home = await makeTempDir('enclave-server-');
  const dataDir = join(home, 'data');
  const tmp = join(home, 'tmp');
  for (const d of [dataDir, tmp]) await mkdir(d, { mode: 0o700 });
  for (const d of [home, dataDir, tmp]) await chown(d, SERVER_UID, SERVER_UID);
  const server = await spawnAppliance(
    {
      HOME: home,
      TMPDIR: tmp,
      ENCLAVE_DATA_DIR: dataDir,
      ENCLAVE_LOG_LEVEL: 'info',
      ENCLAVE_AGENT__COMMAND: JSON.stringify([agent]),
      ENCLAVE_AGENT__REPOSITORY: repository,
      ENCLAVE_AGENT__SANDBOX: sandbox,
    },
    120_000,
    { uid: SERVER_UID, gid: SERVER_UID },
  );
  t.teardown(async () => {
    server.child.kill('SIGTERM');
    const force = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
    await server.exited;
    clearTimeout(force);
  });
  const job = await runJob(apiOfSpawned(server), { prompt: 'Leave something running' }, 60_000);
  const branch = `enclave/agent/${job.id}`;
  const pushed = (await git(join(dir, 'remote.git'), 'branch', '--list', branch)) !== '';
  const pid = pushed ? Number(await git(join(dir, 'remote.git'), 'show', `${branch}:escaped.pid`)) : 0;
  return { job, pid, stderr: `${server.stdout()}${server.stderr()}` };
}

for (const sandbox of ['auto', 'off'] as const) {
  test(`server as uid 10001, agent.sandbox "${sandbox}": a setsid env -i grandchild of the agent does not outlive the job`, async (t) => {
    if (skipUnlessRoot(t)) return;
    t.timeout(120_000);
    buildSandboxLauncher();
    const { job, pid, stderr } = await runAsNonRootServer(t, sandbox, LEAVE_ONE_BEHIND);
    t.is(job.status, 'completed', JSON.stringify(job));
    t.true(pid > 1, 'the grandchild reported its pid');
    await waitUntil('the setsid env -i grandchild to be gone', async () => !isAlive(pid), 5000).catch(() => undefined);
    const alive = isAlive(pid);
    if (alive) process.kill(pid, 'SIGKILL');
    t.false(alive, `process ${pid} (setsid env -i sleep) outlived the job`);
    if (sandbox === 'off')
      t.regex(stderr, /agents run unsandboxed as the server's own user: .*\(agent\.sandbox is \\?"off\\?"\)/, 'start-up warns');
    else t.notRegex(stderr, /agents run unsandboxed/);
  });
}

test('the launcher ends every descendant on SIGTERM too (a timeout or shutdown), setsid env -i ones included', async (t) => {
  buildSandboxLauncher();
  const dir = await makeTempDir('enclave-reaper-');
  const pidFile = join(dir, 'escaped.pid');
  const script = await writeAgentScript(
    dir,
    'stay.sh',
    `setsid env -i /bin/bash -c 'read -r -a s < /proc/self/stat; echo "\${s[0]}" > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; exec sleep 300' < /dev/null > /dev/null 2>&1 &\nexec sleep 300`,
  );
  const launcher = spawn(join(projectRoot, 'build', 'enclave-sandbox'), ['--reap-only', '--', script], { detached: true, stdio: 'ignore' });
  t.teardown(() => {
    try {
      process.kill(-launcher.pid!, 'SIGKILL');
    } catch {
      // gone
    }
  });
  const pid = await waitUntil(
    'the grandchild to start',
    async () => {
      try {
        return Number(readFileSync(pidFile, 'utf8')) || null;
      } catch {
        return null;
      }
    },
    10_000,
  );
  const exited = new Promise<string>((resolve) => launcher.once('exit', (code, signal) => resolve(signal ?? String(code))));
  process.kill(-launcher.pid!, 'SIGTERM'); // what runBoundedProcess does on a timeout, and on shutdown with a grace
  // It dies the way its program did (by SIGTERM), or exits 143 when it stopped the program itself.
  t.true(['SIGTERM', '143'].includes(await exited));
  await waitUntil('the grandchild to be gone', async () => !isAlive(pid), 3000).catch(() => undefined);
  const alive = isAlive(pid);
  if (alive) process.kill(pid, 'SIGKILL');
  t.false(alive, `process ${pid} outlived the launcher`);
});

test('start-up warnings: agent.sandbox "off" for an agent sharing the server user, and no Landlock under "auto"; none for an agent with its own user', (t) => {
  const setup = {
    launcher: '/nonexistent/enclave-sandbox',
    dataDir: '/srv/enclave-data',
    program: '/usr/bin/true',
    args: [],
    extraReadPaths: [],
    agentIsRoot: false,
  };
  const off = planAgentSandbox({ ...setup, mode: 'off', agentHasOwnUser: false });
  t.is(off.sandbox, null);
  t.regex(
    off.warning ?? '',
    /agents run unsandboxed as the server's own user: they can read the server's environment.*\(agent\.sandbox is "off"\)/,
  );
  const missing = planAgentSandbox({ ...setup, mode: 'auto', agentHasOwnUser: false });
  t.regex(missing.warning ?? '', /\(no Landlock: the launcher \/nonexistent\/enclave-sandbox is missing/);
  t.is(planAgentSandbox({ ...setup, mode: 'off', agentHasOwnUser: true }).warning, null, 'a uid of its own separates them');
  t.is(off.reaper, null, 'no launcher, no reaper');
});

/** `enclave doctor` run as uid 10001 (as `docker exec` runs it in the image) with these agent settings; its stdout. */
function doctorAsNonRoot(env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(projectRoot, 'bin', 'enclave.js'), 'doctor'], {
      cwd: projectRoot,
      uid: SERVER_UID,
      gid: SERVER_UID,
      env: { PATH: process.env.PATH ?? '', HOME: '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.resume();
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`enclave doctor ran too long:\n${out}`));
    }, 60_000);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

test('enclave doctor warns when agents would run unsandboxed as the server user, and says when they are sandboxed', async (t) => {
  if (skipUnlessRoot(t)) return;
  t.timeout(120_000);
  buildSandboxLauncher();
  const home = await makeTempDir('enclave-doctor-');
  await chown(home, SERVER_UID, SERVER_UID);
  const base = { ENCLAVE_DATA_DIR: join(home, 'data'), ENCLAVE_AGENT__COMMAND: JSON.stringify(['/usr/bin/true']) };
  const off = await doctorAsNonRoot({ ...base, ENCLAVE_AGENT__SANDBOX: 'off' });
  t.regex(
    off,
    /^WARN {2}agent isolation: agents run unsandboxed as the server's own user: they can read .*\(agent\.sandbox is "off"\)/m,
    off,
  );
  const auto = await doctorAsNonRoot({ ...base, ENCLAVE_AGENT__SANDBOX: 'auto' });
  t.regex(auto, /^ok {4}agent isolation: Landlock sandbox \(ABI \d+\)$/m, auto);
  const none = await doctorAsNonRoot({ ENCLAVE_DATA_DIR: join(home, 'data') });
  t.notRegex(none, /agent isolation/, 'no agent command, no line');
});
