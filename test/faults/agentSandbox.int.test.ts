import test, { type ExecutionContext } from 'ava';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { keyringPath } from '../../src/platform/SigningKeyring.js';
import { localCliKeyPath } from '../../src/features/control/localCliKey.js';
import { planAgentSandbox, SANDBOX_LAUNCHER } from '../../src/features/agent/planAgentSandbox.js';
import { spawnAppliance } from '../helpers/spawnAppliance.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import {
  apiOfSpawned,
  buildSandboxLauncher,
  git,
  makeDocsRemote,
  runJob,
  startAgentAppliance,
  startGitHttpServer,
  writeAgentScript,
} from '../agent/agentFixture.js';

// The image runs the server as uid 10001 and, not being root, it cannot give the agent a uid of
// its own. These tests run that setup for real: the server as 10001 with a deploy token in its
// environment, and an agent (also 10001) that goes looking for it and for the data directory.

const SERVER_UID = 10001;
const TOKEN = 'deploy-token-7c2a9e';

/**
 * The agent's snooping, written into its work tree (so it is committed and pushed, and the test
 * reads it from the remote): every environment it can read walking up from its parent to pid 1
 * and across /proc, the data directory ($1) and its secrets, whether it may signal the server.
 */
const SNOOP = [
  '{',
  '  echo "uid $(id -u)"',
  '  p=$PPID',
  '  while [ "$p" -gt 1 ]; do',
  '    echo "environ of $p:"',
  "    tr '\\0' '\\n' < /proc/$p/environ || true",
  "    p=$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f2)",
  '  done',
  '  echo "every environ:"',
  "  for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < \"$f\" || true; done",
  '  echo "server fds:"; ls -l "/proc/$PPID/fd" || true',
  '  echo "data dir:"; ls -la "$1" || true',
  '  echo "cli key:"; cat "$1/secrets/cli-key" || true',
  '  echo "keyring:"; cat "$1/secrets/signing-keys.json" || true',
  '  if kill -0 "$PPID"; then echo "signal to the server: allowed"; else echo "signal to the server: refused"; fi',
  '  echo "scratch file: $(mktemp)"',
  '} > seen.txt 2>&1',
  'echo "Edited by the agent." >> index.mdx',
].join('\n');

/** The text between two of the agent's headings. */
function section(seen: string, from: string, to: string): string {
  return seen.slice(seen.indexOf(from), seen.indexOf(to));
}

/** True (with the reason logged) when this process cannot start a server as another user. */
function skipUnlessRoot(t: ExecutionContext): boolean {
  if (process.getuid?.() === 0) return false;
  t.log('SKIPPED: needs root, to start the server as uid 10001 the way the image does');
  t.pass();
  return true;
}

/**
 * Starts the real appliance as uid 10001 (its data directory and TMPDIR owned by that uid) with
 * the deploy token in ENCLAVE_AGENT__REPOSITORY, runs the snooping agent once and returns the
 * job, what the agent saw (from the pushed branch), its job log and the data directory.
 */
async function snoopAsNonRootServer(t: ExecutionContext, sandbox: 'auto' | 'off') {
  const { dir } = await makeDocsRemote(t);
  const gitBase = await startGitHttpServer(t, dir, 'enclave-bot', TOKEN);
  const repository = `${gitBase.replace('http://', `http://enclave-bot:${TOKEN}@`)}/remote.git`;
  // The agent's program lives apart from the data directory: the sandbox lets it read its own folder.
  const bin = await makeTempDir('enclave-agent-bin-');
  await chmod(bin, 0o755);
  const agent = await writeAgentScript(bin, 'snoop.sh', SNOOP);
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
      ENCLAVE_AGENT__COMMAND: JSON.stringify([agent, dataDir]),
      ENCLAVE_AGENT__REPOSITORY: repository,
      ENCLAVE_AGENT__SANDBOX: sandbox,
    },
    120_000,
    { uid: SERVER_UID, gid: SERVER_UID },
  );
  // Stopped gracefully and waited for: the temp directories go at exit, and a server (or an
  // export worker a killed server left behind) still writes its compile cache into them.
  t.teardown(async () => {
    server.child.kill('SIGTERM');
    const force = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
    await server.exited;
    clearTimeout(force);
  });
  const job = await runJob(apiOfSpawned(server), { prompt: 'Snoop, then edit' }, 60_000);
  const id = job.id as string;
  const branch = `enclave/agent/${id}`;
  const pushed = (await git(join(dir, 'remote.git'), 'branch', '--list', branch)) !== '';
  return {
    job,
    pushed,
    seen: pushed ? await git(join(dir, 'remote.git'), 'show', `${branch}:seen.txt`) : '',
    index: pushed ? await git(join(dir, 'remote.git'), 'show', `${branch}:index.mdx`) : '',
    log: await readFile(join(dataDir, 'agent', 'logs', `${id}.log`), 'utf8'),
    stderr: server.stderr(),
    dataDir,
  };
}

test("server as uid 10001 (the image): the sandboxed agent reads neither the server's environment nor its data directory, and its change is pushed", async (t) => {
  if (skipUnlessRoot(t)) return;
  buildSandboxLauncher();
  t.true(existsSync(SANDBOX_LAUNCHER), `${SANDBOX_LAUNCHER} was not built (gcc?)`);
  const run = await snoopAsNonRootServer(t, 'auto');
  t.is(run.job.status, 'completed', JSON.stringify(run.job));
  t.true(run.pushed, 'the branch was pushed');
  t.regex(run.index, /Edited by the agent\./);
  t.regex(run.log, /# as the server's user, in a Landlock sandbox \(ABI \d+\)/);
  t.regex(run.seen, /^uid 10001$/m, 'the agent shares the server uid: only the sandbox stands between them');
  t.regex(run.seen, /ENCLAVE_JOB_ID=/, 'the scan did read environments (its own)');
  t.false(run.seen.includes(TOKEN), 'no environment holding the deploy token was readable');
  t.regex(run.seen, /environ of \d+:\n.*environ: Permission denied/, "the parent's environ was refused");
  const cliKey = (await readFile(localCliKeyPath(run.dataDir), 'utf8')).trim();
  const keyring = await readFile(keyringPath(run.dataDir), 'utf8');
  t.false(run.seen.includes(cliKey), 'the CLI key (full admin access) was not read');
  t.false(run.seen.includes(keyring.slice(10, 40)), 'nothing of the signing keyring');
  t.false(run.seen.includes('control.json'), 'the data directory was not listed');
  t.notRegex(section(run.seen, 'server fds:', 'data dir:'), / -> /, "none of the server's open files could be followed");
  t.regex(run.seen, /server fds:\nls: cannot read symbolic link '\/proc\/\d+\/fd\/\d+': Permission denied/);
  t.regex(run.seen, /data dir:\nls: cannot open directory .*: Permission denied/);
  t.regex(run.seen, /signal to the server: refused/, 'Landlock ABI >= 6 scopes signals');
  t.regex(run.seen, /scratch file: \/.*\/tmp\/tmp\./, 'TMPDIR is writable inside the run directory');
});

test('control: the same agent with agent.sandbox "off" does read the deploy token, the data directory and the CLI key', async (t) => {
  if (skipUnlessRoot(t)) return;
  const run = await snoopAsNonRootServer(t, 'off');
  t.is(run.job.status, 'completed', JSON.stringify(run.job));
  t.regex(run.log, /# as the server's user, unsandboxed: it can read the server's environment and data directory/);
  t.regex(run.seen, /^uid 10001$/m);
  t.true(run.seen.includes(TOKEN), 'without the sandbox the deploy token is in /proc/<server>/environ');
  t.true(run.seen.includes('control.json'), 'and the data directory can be listed');
  t.regex(section(run.seen, 'server fds:', 'data dir:'), / -> /, "and the server's open files followed");
  t.true(run.seen.includes((await readFile(localCliKeyPath(run.dataDir), 'utf8')).trim()), 'and the CLI key read');
  t.regex(run.seen, /signal to the server: allowed/);
});

test('agent.sandbox "landlock" as root: the agent runs as uid 10002 inside the launcher and its change is pushed', async (t) => {
  if (skipUnlessRoot(t)) return;
  buildSandboxLauncher();
  const { dir, remote } = await makeDocsRemote(t);
  const agent = await writeAgentScript(dir, 'edit.sh', 'echo "uid $(id -u)"; echo "Edited." >> index.mdx');
  const app = await startAgentAppliance(t, { command: [agent], repository: remote, sandbox: 'landlock' });
  const job = await runJob(app, { prompt: 'Edit' });
  t.is(job.status, 'completed', JSON.stringify(job));
  const log = await readFile(join(app.config.dataDir, 'agent', 'logs', `${job.id}.log`), 'utf8');
  t.regex(log, /# as uid 10002 gid 10002(, in its own PID namespace)?, in a Landlock sandbox/);
  t.regex(log, /^uid 10002$/m);
  t.regex(await git(remote, 'show', `enclave/agent/${job.id}:index.mdx`), /Edited\./);
});

test('planning: a working launcher sandboxes a same-uid agent, reads only system and own directories, and keeps the data directory out', async (t) => {
  buildSandboxLauncher();
  const scripts = await makeTempDir('enclave-agent-scripts-');
  await writeFile(join(scripts, 'run.mjs'), '');
  const base = {
    mode: 'auto' as const,
    agentHasOwnUser: false,
    agentIsRoot: false,
    launcher: SANDBOX_LAUNCHER,
    dataDir: '/srv/enclave/data',
    program: '/srv/agents/run.sh',
    args: [],
    extraReadPaths: ['/models'],
  };
  const plan = planAgentSandbox(base);
  t.truthy(plan.sandbox, JSON.stringify(plan));
  t.true(plan.sandbox!.abi >= 1);
  t.deepEqual(plan.sandbox!.readOnly.slice(-2), ['/srv/agents', '/models']);
  t.true(plan.sandbox!.readOnly.includes('/usr'));
  t.false(plan.sandbox!.readOnly.some((p) => p === '/srv' || p === '/srv/enclave' || p.startsWith('/srv/enclave/')));
  // An argument that is a file (`node /path/run.mjs`) makes its directory readable; other arguments do not.
  const withScript = planAgentSandbox({ ...base, args: [join(scripts, 'run.mjs'), '/srv/enclave/data', '--fast'] });
  t.deepEqual(withScript.sandbox!.readOnly.slice(-3), ['/srv/agents', scripts, '/models']);
  // A system directory that holds the data directory is left out, with a note.
  const inOpt = planAgentSandbox({ ...base, dataDir: '/opt/enclave/data' });
  t.false(inOpt.sandbox!.readOnly.includes('/opt'));
  t.deepEqual(inOpt.notes, ['/opt holds the data directory, so the sandboxed agent may not read it']);
  // The agent's own folder (or a configured read path) holding the data directory stops startup.
  const err = t.throws(() => planAgentSandbox({ ...base, program: '/srv/enclave/run.sh' }));
  t.regex(err!.message, /would be allowed to read \/srv\/enclave, which holds or is inside the data directory/);
  t.throws(() => planAgentSandbox({ ...base, extraReadPaths: ['/srv/enclave/data/secrets'] }));
});

test('an agent.workDir inside the data directory stops startup when the agent is sandboxed (it could not reach its copy)', async (t) => {
  buildSandboxLauncher();
  const dataDir = await makeTempDir();
  const workDir = join(dataDir, 'agent-trees');
  const err = await t.throwsAsync(
    startTestAppliance({ dataDir, overrides: { agent: { command: ['true'], workDir, sandbox: 'landlock', runAsUser: 'server' } } }),
  );
  t.is(
    err!.message,
    `agent.workDir (${workDir}) is inside the data directory, which the sandboxed agent may not reach; choose a directory outside it`,
  );
});
