import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { sshConnectionsDir } from '../../src/features/sources/ssh/createSshConnections.js';
import { spawnAppliance } from '../helpers/spawnAppliance.js';
import { startSshGitServer } from '../helpers/sshGitServer.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { getSite, git, makeDocsRepo } from './gitSourceFixture.js';
import { processesMentioning, processRuns } from './sshProcesses.js';

// Issue 31: the appliance's shared ssh connection lives and dies with the appliance. Its
// master is a child the appliance tracks: stopped with it, and, when the appliance is killed
// without a shutdown, ended by the kernel (setpriv --pdeathsig); the next start clears the
// directory. Against a real OpenSSH server.

/** Hang guard on a start, an export and deploy: far above what they take on a busy machine. */
const HANG_GUARD_MS = 300_000;
const DOMAIN = 'docs.ssh-shared.test';

test('an appliance’s updates share one login, and once it has stopped no ssh process of its is left', async (t) => {
  const repo = await makeDocsRepo();
  const sshd = await startSshGitServer(join(repo.root, 'sshd'));
  t.teardown(() => sshd.close());
  const source = { git: sshd.url(repo.bare), branch: 'main', sshKeyFile: sshd.clientKeyFile, knownHostsFile: sshd.knownHostsFile };
  const app = await startTestAppliance({ overrides: { sites: [{ domain: DOMAIN, source }] } });
  let closed = false;
  t.teardown(() => (closed ? undefined : app.close()));
  const sources = app.features.sources;
  await waitUntil('first deploy', async () => sources.state.site(DOMAIN).liveSha, HANG_GUARD_MS);
  const [master] = await sources.ssh!.pids();
  t.truthy(master);
  await sources.sync.poll(DOMAIN);
  await sources.sync.poll(DOMAIN);
  t.is(sshd.logins(), 1, 'the first fetch and two polls: one login');
  t.deepEqual(await sources.ssh!.pids(), [master]);

  await app.close();
  closed = true;
  t.false(await processRuns(master!));
  t.deepEqual(await processesMentioning(app.dataDir), [], 'no process names the data directory');
});

test('an appliance killed without a shutdown takes its master with it; the next start clears what it left', async (t) => {
  const repo = await makeDocsRepo();
  const sshd = await startSshGitServer(join(repo.root, 'sshd'));
  t.teardown(() => sshd.close());
  const dataDir = await makeTempDir('enclave-ssh-killed-');
  const configFile = join(await makeTempDir('enclave-ssh-config-'), 'enclave.json');
  const source = { git: sshd.url(repo.bare), branch: 'main', sshKeyFile: sshd.clientKeyFile, knownHostsFile: sshd.knownHostsFile };
  await writeFile(configFile, JSON.stringify({ sites: [{ domain: DOMAIN, source }] }));
  const server = await spawnAppliance({ ENCLAVE_DATA_DIR: dataDir, ENCLAVE_CONFIG: configFile }, HANG_GUARD_MS);
  t.teardown(() => server.child.kill('SIGKILL'));
  const masters = () => processesMentioning(sshConnectionsDir(dataDir)).then((found) => found.filter((p) => / -M -N /.test(p.command)));
  const [master] = await waitUntil('the master to log in', async () => ((await masters()).length ? masters() : null), HANG_GUARD_MS);
  t.is((await masters()).length, 1);

  server.child.kill('SIGKILL');
  await server.exited;
  await waitUntil('the master to end with the appliance', async () => !(await processRuns(master!.pid)), HANG_GUARD_MS);
  const left = await readdir(sshConnectionsDir(dataDir));
  t.true(left.length > 0, 'the config file stays behind a kill');

  const app = await startTestAppliance({ dataDir, overrides: { sites: [{ domain: DOMAIN, source }] } });
  t.teardown(() => app.close());
  await waitUntil('a deploy by the next start', async () => app.features.sources.state.site(DOMAIN).liveSha, HANG_GUARD_MS);
  const now = await readdir(sshConnectionsDir(dataDir));
  t.deepEqual(
    now.filter((name) => left.includes(name)),
    [],
    'nothing of the killed run is left',
  );
  t.regex((await getSite(app.port, DOMAIN, '/')).body, /First version of the welcome page/);
  t.is(app.features.sources.state.site(DOMAIN).liveSha, await git(repo.bare, 'rev-parse', 'main'));
});
