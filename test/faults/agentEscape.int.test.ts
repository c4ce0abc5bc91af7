import test from 'ava';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { keyringPath } from '../../src/platform/SigningKeyring.js';
import { isolateAgentCommand } from '../../src/features/agent/isolateAgentCommand.js';
import { killJobProcesses } from '../../src/features/agent/killJobProcesses.js';
import { runBoundedProcess } from '../../src/platform/git/runBoundedProcess.js';
import { spawnAppliance } from '../helpers/spawnAppliance.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';
import {
  apiOfSpawned,
  git,
  makeDocsRemote,
  runJob,
  startAgentAppliance,
  startGitHttpServer,
  writeAgentScript,
} from '../agent/agentFixture.js';

// An agent is untrusted code with write access to its clone. Each attack below made the
// appliance's own git run agent-chosen code or push elsewhere before the appliance took only
// the agent's work tree into a clone of its own.

/** Bash that copies the clone's real .git to ../evil and points .git/commondir at it, then runs `configure` on it. */
function commondirAttack(configure: string[]): string {
  return [
    'echo change >> index.mdx',
    'cp -r .git ../evil',
    ...configure.map((c) => `git config -f ../evil/config ${c}`),
    'echo ../../evil > .git/commondir',
  ].join('\n');
}

/**
 * A temp data directory for a test that needs the server to run as root (only then does the
 * agent get a user of its own); null, with the skip logged, otherwise.
 */
async function rootOnlyDataDir(t: import('ava').ExecutionContext): Promise<string | null> {
  if (process.getuid?.() !== 0) {
    t.log('SKIPPED: needs root (the agent only gets its own user when the server is root)');
    t.pass();
    return null;
  }
  const dataDir = await makeTempDir();
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  return dataDir;
}

/** Asserts the remote got no branch from the job. */
async function assertNothingPushed(t: import('ava').ExecutionContext, remote: string): Promise<void> {
  t.is(await git(remote, 'branch', '--list', 'enclave/*'), '', 'nothing pushed to the real remote');
}

test('commondir: a filter in the redirected config never runs as the server', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const marker = join(dir, 'filter-ran');
  const agent = await writeAgentScript(
    dir,
    'commondir-filter.sh',
    [commondirAttack([`filter.evil.clean "sh -c 'id -u > ${marker}; cat'"`]), "echo '* filter=evil' > .gitattributes"].join('\n'),
  );
  const app = await startAgentAppliance(t, { command: [agent], repository: remote });
  const job = await runJob(app, { prompt: 'Edit' });
  t.false(existsSync(marker), existsSync(marker) ? `the filter ran as uid ${await readFile(marker, 'utf8')}` : 'no filter ran');
  t.is(job.status, 'failed');
  t.is(job.error, 'the agent added .git/commondir, which points git elsewhere; refused, nothing was pushed');
  await assertNothingPushed(t, remote);
});

test('commondir: url.insteadOf in the redirected config cannot send the push to another repository', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const decoy = join(dir, 'decoy.git');
  await git(dir, 'init', '--quiet', '--bare', decoy);
  const agent = await writeAgentScript(
    dir,
    'commondir-insteadof.sh',
    commondirAttack([`url.${decoy}.insteadOf ${remote}`, `url.${decoy}.pushInsteadOf ${remote}`]),
  );
  const app = await startAgentAppliance(t, { command: [agent], repository: remote });
  const job = await runJob(app, { prompt: 'Edit' });
  t.is(await git(decoy, 'branch', '--list'), '', 'the decoy received nothing');
  t.is(job.status, 'failed');
  await assertNothingPushed(t, remote);
});

test('a hook: the push cannot be steered to a repository whose post-receive hook runs as the server', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const marker = join(dir, 'hook-ran');
  const trap = join(dir, 'trap.git');
  const agent = await writeAgentScript(
    dir,
    'hook.sh',
    [
      // The agent makes its own bare repository with a hook, plus hooks in its clone for good measure.
      `git init --quiet --bare ${trap}`,
      `printf '#!/bin/sh\\nid -u > ${marker}\\n' > ${trap}/hooks/post-receive`,
      `chmod +x ${trap}/hooks/post-receive`,
      `for h in pre-commit post-commit pre-push reference-transaction; do cp ${trap}/hooks/post-receive .git/hooks/$h; done`,
      'git config core.hooksPath .git/hooks',
      commondirAttack([`url.${trap}.insteadOf ${remote}`, `url.${trap}.pushInsteadOf ${remote}`, 'core.hooksPath hooks']),
    ].join('\n'),
  );
  const app = await startAgentAppliance(t, { command: [agent], repository: remote });
  const job = await runJob(app, { prompt: 'Edit' });
  t.false(existsSync(marker), 'no hook ran');
  t.is(job.status, 'failed');
  await assertNothingPushed(t, remote);
});

test("a .gitattributes filter defined in the clone's config runs nothing, and the change is still pushed", async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const marker = join(dir, 'filter-ran');
  const agent = await writeAgentScript(
    dir,
    'attributes.sh',
    [
      'echo change >> index.mdx',
      "echo '*.mdx filter=evil' > .gitattributes",
      `git config filter.evil.clean "sh -c 'touch ${marker}; cat'"`,
      `git config filter.evil.process "sh -c 'touch ${marker}'"`,
      'mkdir -p .git/info',
      "echo '* filter=evil' > .git/info/attributes",
    ].join('\n'),
  );
  const app = await startAgentAppliance(t, { command: [agent], repository: remote });
  const job = await runJob(app, { prompt: 'Edit' });
  t.false(existsSync(marker), 'no filter ran');
  t.is(job.status, 'completed', JSON.stringify(job));
  t.is(
    await git(remote, 'show', `enclave/agent/${job.id}:.gitattributes`),
    '*.mdx filter=evil',
    'the file itself is content, committed as written',
  );
});

test("a symlinked .git is refused: nothing of the agent's git directory is used", async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const decoy = join(dir, 'decoy.git');
  await git(dir, 'init', '--quiet', '--bare', decoy);
  const agent = await writeAgentScript(
    dir,
    'symlink.sh',
    ['echo change >> index.mdx', 'mv .git ../real-git', 'ln -s ../real-git .git', `git config url.${decoy}.pushInsteadOf ${remote}`].join(
      '\n',
    ),
  );
  const app = await startAgentAppliance(t, { command: [agent], repository: remote });
  const job = await runJob(app, { prompt: 'Edit' });
  t.is(job.status, 'failed');
  t.is(job.error, "the agent replaced the clone's .git with a symlink; refused, nothing was pushed");
  t.is(await git(decoy, 'branch', '--list'), '');
  await assertNothingPushed(t, remote);
});

test('a .git file (gitdir:) or a nested repository is refused', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const gitdirFile = await writeAgentScript(
    dir,
    'gitdir.sh',
    ['echo change >> index.mdx', 'mv .git ../moved', 'echo "gitdir: ../moved" > .git'].join('\n'),
  );
  const nested = await writeAgentScript(
    dir,
    'nested.sh',
    ['echo change >> index.mdx', 'mkdir -p vendor/lib', 'git init --quiet vendor/lib', 'echo x > vendor/lib/x'].join('\n'),
  );
  const app = await startAgentAppliance(t, { command: [gitdirFile], repository: remote });
  const job = await runJob(app, { prompt: 'Edit' });
  t.is(job.error, "the agent replaced the clone's .git with a file; refused, nothing was pushed");
  await app.close();
  const again = await startAgentAppliance(t, { command: [nested], repository: remote });
  const second = await runJob(again, { prompt: 'Edit' });
  t.is(second.status, 'failed');
  t.is(second.error, 'the agent left a nested repository (vendor/lib/.git); refused, nothing was pushed');
  await assertNothingPushed(t, remote);
});

test("the agent cannot read the server's environment (deploy token), its data directory or its secrets", async (t) => {
  if (!(await rootOnlyDataDir(t))) return; // as the same user the agent can read both, as SECURITY.md says
  const { dir } = await makeDocsRemote(t);
  const base = await startGitHttpServer(t, dir, 'enclave-bot', 'deploy-token-5e1f');
  const dataDir = join(dir, 'data');
  const seen = join(dir, 'seen');
  // The agent knows the data directory's path (argv) and looks at every process's environment.
  const agent = await writeAgentScript(
    dir,
    'snoop.sh',
    [
      `mkdir -p ${seen}`,
      `id -u > ${seen}/uid`,
      `for f in /proc/[0-9]*/environ; do cat "$f" 2>/dev/null | tr '\\0' '\\n'; done > ${seen}/environs || true`,
      `cat /proc/$PPID/environ > ${seen}/parent-environ 2>&1 || true`,
      `ls -a "$1" > ${seen}/datadir 2>&1 || true`,
      `cat "$1/secrets/signing-keys.json" > ${seen}/keyring 2>&1 || true`,
    ].join('\n'),
  );
  const server = await spawnAppliance({
    ENCLAVE_DATA_DIR: dataDir,
    ENCLAVE_AGENT__COMMAND: JSON.stringify([agent, dataDir]),
    ENCLAVE_AGENT__REPOSITORY: `${base.replace('http://', 'http://enclave-bot:deploy-token-5e1f@')}/remote.git`,
  });
  t.teardown(() => server.child.kill('SIGKILL'));
  const job = await runJob(apiOfSpawned(server), { prompt: 'Snoop' }, 30_000);
  t.is(job.status, 'completed', JSON.stringify(job));
  t.is((await readFile(join(seen, 'uid'), 'utf8')).trim(), '10002', 'agent.runAsUser "auto" as root: uid 10002');
  const environs = await readFile(join(seen, 'environs'), 'utf8');
  t.true(environs.includes('ENCLAVE_JOB_ID='), 'the scan did read environments (its own)');
  t.false(environs.includes('deploy-token-5e1f'), 'no process environment holding the deploy token was readable');
  const secret = await readFile(keyringPath(dataDir), 'utf8');
  for (const name of ['parent-environ', 'datadir', 'keyring']) {
    const text = await readFile(join(seen, name), 'utf8');
    t.false(text.includes('deploy-token-5e1f'), `${name}: no deploy token`);
    t.false(text.includes(secret.slice(10, 40)), `${name}: nothing of the keyring`);
  }
  const listing = await readFile(join(seen, 'datadir'), 'utf8');
  t.false(listing.includes('control.json'), 'no listing of the data directory');
  t.regex(listing, /Permission denied/);
  t.regex(await readFile(join(seen, 'keyring'), 'utf8'), /Permission denied/);
});

test('a data directory others may enter (0755, as a Docker volume starts) is closed to them when the agent has its own user', async (t) => {
  const dataDir = await rootOnlyDataDir(t);
  if (!dataDir) return;
  await chmod(dataDir, 0o755);
  await startAgentAppliance(t, { command: ['true'] }, { dataDir });
  t.is((await stat(dataDir)).mode & 0o777, 0o750);
});

test('an agent.workDir inside the data directory stops startup when the agent has its own user (every run would fail)', async (t) => {
  const dataDir = await rootOnlyDataDir(t);
  if (!dataDir) return;
  const workDir = join(dataDir, 'agent-trees');
  const err = await t.throwsAsync(startTestAppliance({ dataDir, overrides: { agent: { command: ['true'], workDir } } }));
  t.is(
    err!.message,
    `agent.workDir (${workDir}) is inside the data directory, which the agent's user (uid 10002) cannot enter; choose a directory outside it`,
  );
});

test('a setsid child the agent leaves behind does not outlive the job', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const pidFile = join(dir, 'escaped.pid');
  // The child reads its host pid from /proc/self (inside a PID namespace $$ would be the namespace's).
  const agent = await writeAgentScript(
    dir,
    'setsid.sh',
    `setsid bash -c 'read -r -a s < /proc/self/stat; echo "\${s[0]}" > ${pidFile}; exec sleep 300' < /dev/null > /dev/null 2>&1 &\nwhile [ ! -s ${pidFile} ]; do sleep 0.05; done`,
  );
  const app = await startAgentAppliance(t, { command: [agent], repository: remote });
  const job = await runJob(app, { prompt: 'Leave something running' });
  t.is(job.status, 'completed', JSON.stringify(job));
  const pid = Number(await readFile(pidFile, 'utf8'));
  t.true(pid > 1);
  await waitUntil('the setsid child to be gone', async () => !isAlive(pid), 3000).catch(() => undefined);
  t.false(isAlive(pid), `process ${pid} (setsid sleep) outlived the job`);
});

test('without a PID namespace, a setsid process carrying the job id is found through /proc and killed', async (t) => {
  const jobId = 'aj_0123456789abcdef';
  // Not a group leader, so setsid(1) calls setsid() itself instead of forking: child.pid is the escaped process.
  const child = spawn('setsid', ['bash', '-c', 'sleep 300 & exec sleep 300'], {
    env: { PATH: '/usr/bin:/bin', ENCLAVE_JOB_ID: jobId },
    stdio: 'ignore',
  });
  const bystander = spawn('sleep', ['300'], { env: { PATH: '/usr/bin:/bin', ENCLAVE_JOB_ID: 'aj_ffffffffffffffff' }, stdio: 'ignore' });
  t.teardown(() => {
    for (const p of [child, bystander]) p.kill('SIGKILL');
  });
  await new Promise((r) => setTimeout(r, 200));
  const killed = await killJobProcesses(jobId);
  t.true(killed >= 2, `killed ${killed}`);
  await waitUntil('the setsid process to exit', async () => child.exitCode !== null || child.signalCode !== null);
  t.is(child.signalCode, 'SIGKILL');
  t.true(isAlive(bystander.pid!), "another job's process is left alone");
});

/** True while `pid` is a live (non-zombie) process. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]);
  } catch {
    return false;
  }
}

test('without unshare (a server that is not root, or a container without CAP_SYS_ADMIN) the agent is spawned directly, as its user when one is set', async (t) => {
  t.deepEqual(isolateAgentCommand(['/opt/agent', '--fast'], null, 1000), { command: '/opt/agent', args: ['--fast'], pidNamespace: false });
  t.deepEqual(isolateAgentCommand(['/opt/agent'], { uid: 10002, gid: 10002 }, 1000), {
    command: '/opt/agent',
    args: [],
    uid: 10002,
    gid: 10002,
    pidNamespace: false,
  });
  if (process.getuid?.() !== 0) {
    t.log('SKIPPED the spawn: switching uid needs root');
    return;
  }
  // The spawn option itself (what runs when unshare is unavailable): uid, gid and no supplementary groups.
  let out = '';
  const outcome = await runBoundedProcess({
    command: 'id',
    args: [],
    uid: 10002,
    gid: 10002,
    cwd: '/',
    env: { PATH: '/usr/bin:/bin' },
    timeoutMs: 5000,
    onOutput: (c) => (out += c.toString()),
  });
  t.deepEqual(outcome, { kind: 'exited', code: 0, signal: null });
  t.is(out.trim(), 'uid=10002 gid=10002 groups=10002');
});
