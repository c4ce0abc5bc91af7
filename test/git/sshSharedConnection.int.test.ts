import { copyFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { GitSourceConfig } from '../../src/config/sections/gitSource.js';
import { fetchGitSource, GitFetchError } from '../../src/features/sources/fetchGitSource.js';
import type { SshConnections } from '../../src/features/sources/ssh/SshConnections.js';
import { ManualClock } from '../../src/platform/Clock.js';
import { knownHostsEntry, makeSshKey, startSshGitServer, type SshGitServer } from '../helpers/sshGitServer.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { git, makeDocsRepo, type DocsRepo } from './gitSourceFixture.js';
import { commandLine, processRuns, sharedConnections } from './sshProcesses.js';

// Issue 31: fetches of an ssh source share one ssh connection the appliance owns
// (src/features/sources/ssh/): a master started on the first fetch, reused after, replaced
// when it dies or its files change, stopped when idle. Against a real OpenSSH server, whose
// log counts the logins. Time limits are hang guards; idle time runs on a manual clock.

/** Hang guard on a fetch and on a master's login: far above what either takes on a busy machine. */
const FETCH_GUARD_MS = 120_000;
const IDLE_MS = 300_000;

interface World {
  repo: DocsRepo;
  sshd: SshGitServer;
  source: GitSourceConfig;
  shared: SshConnections;
  clock: ManualClock;
  /** The shared connections' directory. */
  dir: string;
  /** Fetches into the world's clone through the shared connections. */
  fetch(source?: GitSourceConfig): Promise<{ sha: string }>;
}

async function world(t: ExecutionContext): Promise<World> {
  const repo = await makeDocsRepo();
  const sshd = await startSshGitServer(join(repo.root, 'sshd'));
  const secrets = await makeTempDir('enclave-ssh-shared-');
  const keyFile = join(secrets, 'deploy_key');
  const knownHostsFile = join(secrets, 'known_hosts');
  await copyFile(sshd.clientKeyFile, keyFile);
  await copyFile(sshd.knownHostsFile, knownHostsFile);
  const clock = new ManualClock('2026-11-27T12:00:00Z');
  const dir = join(secrets, 'ssh');
  const shared = await sharedConnections(dir, clock, IDLE_MS);
  t.teardown(async () => {
    await shared.stop();
    await sshd.close();
  });
  const source: GitSourceConfig = { git: sshd.url(repo.bare), branch: 'main', sshKeyFile: keyFile, knownHostsFile };
  const clone = join(secrets, 'clone');
  const fetch = (s = source) => fetchGitSource(s, clone, { timeoutMs: FETCH_GUARD_MS, ssh: shared });
  return { repo, sshd, source, shared, clock, dir, fetch };
}

async function onlyMaster(t: ExecutionContext, shared: SshConnections): Promise<number> {
  const pids = await shared.pids();
  t.is(pids.length, 1, `one master: ${pids.join(', ')}`);
  return pids[0]!;
}

test('a second fetch goes through the first one’s connection: sshd sees one login and the master stays', async (t) => {
  const { repo, sshd, shared, dir, fetch } = await world(t);
  const head = await git(repo.bare, 'rev-parse', 'main');
  t.deepEqual(await fetch(), { sha: head });
  const master = await onlyMaster(t, shared);
  t.deepEqual(await fetch(), { sha: head });
  t.deepEqual(await fetch(), { sha: head });
  t.is(sshd.logins(), 1, 'three fetches, one login');
  t.deepEqual(await shared.pids(), [master]);

  // The master is a child the appliance started, logged in with the source's own options.
  const command = await commandLine(master);
  t.regex(command, / -M -N -o ControlPersist=no /);
  // Its socket is named only in its config file (0600, in the 0700 directory): no command line
  // another process can read says where it is.
  t.is((await stat(dir)).mode & 0o777, 0o700);
  const names = await readdir(dir);
  t.is(names.length, 2, `a config file and a socket: ${names.join(', ')}`);
  const socket = names.find((n) => !command.includes(n));
  t.truthy(socket);
  t.true((await stat(join(dir, socket!))).isSocket());
  t.is((await stat(join(dir, names.find((n) => n !== socket)!))).mode & 0o777, 0o600);
});

test('fetches at the same time wait for one master and share it', async (t) => {
  const { repo, sshd, shared, source } = await world(t);
  const dir = await makeTempDir('enclave-ssh-together-');
  const fetches = [1, 2, 3].map((i) => fetchGitSource(source, join(dir, `clone-${i}`), { timeoutMs: FETCH_GUARD_MS, ssh: shared }));
  const head = await git(repo.bare, 'rev-parse', 'main');
  t.deepEqual(await Promise.all(fetches), [{ sha: head }, { sha: head }, { sha: head }]);
  await onlyMaster(t, shared);
  t.is(sshd.logins(), 1);
});

test('a master killed between fetches: the next fetch still works, and a fresh master takes over', async (t) => {
  const { repo, sshd, shared, fetch } = await world(t);
  const head = await git(repo.bare, 'rev-parse', 'main');
  await fetch();
  const first = await onlyMaster(t, shared);
  process.kill(first, 'SIGKILL'); // its socket stays behind: ssh only removes it when it can
  t.deepEqual(await fetch(), { sha: head }, 'through ssh’s own fallback, or a new master');
  await waitUntil('the killed master to be reaped', async () => !(await shared.pids()).includes(first), FETCH_GUARD_MS);
  t.deepEqual(await fetch(), { sha: head });
  const second = await onlyMaster(t, shared);
  t.not(second, first);
  t.false(await processRuns(first));
  const logins = sshd.logins();
  await fetch();
  t.is(sshd.logins(), logins, 'the fresh master is shared in turn');
});

test('a socket removed under a running master: the next fetch replaces the master instead of logging in alone ever after', async (t) => {
  const { repo, sshd, shared, dir, fetch } = await world(t);
  await fetch();
  const first = await onlyMaster(t, shared);
  for (const name of await readdir(dir)) {
    if ((await stat(join(dir, name))).isSocket()) await rm(join(dir, name));
  }
  t.deepEqual(await fetch(), { sha: await git(repo.bare, 'rev-parse', 'main') });
  const second = await onlyMaster(t, shared);
  t.not(second, first);
  t.false(await processRuns(first));
  const logins = sshd.logins();
  await fetch();
  t.is(sshd.logins(), logins);
});

test('sshd restarted (every connection cut): the next fetch works and logs in again', async (t) => {
  const { repo, sshd, shared, fetch } = await world(t);
  await fetch();
  const first = await onlyMaster(t, shared);
  await sshd.restart();
  const second = await repo.commit({ 'index.mdx': '# After the restart\n' }, 'After the restart');
  t.deepEqual(await fetch(), { sha: second });
  t.is(sshd.logins(), 2, 'one login before the restart, one after');
  await waitUntil('the cut master to be gone', async () => !(await processRuns(first)), FETCH_GUARD_MS);
  t.deepEqual(await fetch(), { sha: second });
});

test('a host key that no longer matches known_hosts is refused on the shared path too, and its master is gone', async (t) => {
  const { repo, sshd, shared, source, fetch } = await world(t);
  await fetch();
  const first = await onlyMaster(t, shared);
  const trusted = sshd.knownHostsLine;
  const impostor = await makeSshKey(await makeTempDir('enclave-ssh-impostor-'), 'impostor');
  await writeFile(source.knownHostsFile!, `${knownHostsEntry(sshd.port, impostor)}\n`);
  const err = await t.throwsAsync(fetch(), { instanceOf: GitFetchError });
  t.regex(err?.message ?? '', /Host key verification failed/);
  t.false(await processRuns(first), 'the master logged in under the old file is stopped');
  t.deepEqual(await shared.pids(), [], 'and none logged in under the new one');

  await writeFile(source.knownHostsFile!, `${trusted}\n`);
  t.deepEqual(await fetch(), { sha: await git(repo.bare, 'rev-parse', 'main') });
  t.not(await onlyMaster(t, shared), first);
});

test('changed settings mean a new master: a rewritten key file, another known_hosts file', async (t) => {
  const { sshd, shared, source, fetch } = await world(t);
  await fetch();
  const first = await onlyMaster(t, shared);
  await copyFile(sshd.clientKeyFile, source.sshKeyFile!); // same key, written again: ssh would read it again
  await fetch();
  const second = await onlyMaster(t, shared);
  t.not(second, first);
  t.false(await processRuns(first));
  t.is(sshd.logins(), 2);

  const otherKnownHosts = join(await makeTempDir('enclave-ssh-kh-'), 'known_hosts');
  await copyFile(source.knownHostsFile!, otherKnownHosts);
  await fetch({ ...source, knownHostsFile: otherKnownHosts });
  const both = await shared.pids();
  t.is(both.length, 2, 'one master per known_hosts file');
  t.true(both.includes(second));
  t.is(sshd.logins(), 3);
});

test('a master unused for the idle time (manual clock) is stopped; the next fetch starts another', async (t) => {
  const { shared, clock, sshd, fetch } = await world(t);
  await fetch();
  const first = await onlyMaster(t, shared);
  clock.advance(IDLE_MS - 1);
  await shared.stopIdle(clock.now());
  t.deepEqual(await shared.pids(), [first], 'not idle long enough');
  await fetch(); // used again: the idle time starts over
  clock.advance(IDLE_MS - 1);
  await shared.stopIdle(clock.now());
  t.deepEqual(await shared.pids(), [first]);
  clock.advance(1);
  await shared.stopIdle(clock.now());
  t.deepEqual(await shared.pids(), []);
  t.false(await processRuns(first));
  await fetch();
  t.not(await onlyMaster(t, shared), first);
  t.is(sshd.logins(), 2);
});

test('a server that never answers: the master’s time limit and then the fetch’s end it, no hang', async (t) => {
  const { createServer } = await import('node:net');
  const silent = createServer(() => {}); // accepts, never says a word
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => silent.close());
  const { port } = silent.address() as { port: number };
  const dir = await makeTempDir('enclave-ssh-silent-');
  const knownHostsFile = join(dir, 'known_hosts');
  await writeFile(knownHostsFile, '');
  const shared = await sharedConnections(join(dir, 'ssh'), new ManualClock());
  t.teardown(() => shared.stop());
  const source = { git: `ssh://git@127.0.0.1:${port}/docs.git`, branch: 'main', knownHostsFile };
  // The limit is what ends it (the server can't answer), whatever the machine's load.
  const err = await t.throwsAsync(fetchGitSource(source, join(dir, 'clone'), { timeoutMs: 1000, ssh: shared }), {
    instanceOf: GitFetchError,
  });
  t.regex(err?.message ?? '', /timed out/);
  t.deepEqual(await shared.pids(), []);
});
