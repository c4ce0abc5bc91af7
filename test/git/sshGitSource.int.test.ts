import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { fetchGitSource, GitFetchError } from '../../src/features/sources/fetchGitSource.js';
import { knownHostsEntry, makeSshKey, startSshGitServer, type SshGitServer } from '../helpers/sshGitServer.js';
import { makeTempDir, startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { getSite, git, makeDocsRepo, type DocsRepo } from './gitSourceFixture.js';

// Issue 31: a site whose source is `ssh://…`, fetched through a real OpenSSH server
// (test/helpers/sshGitServer.ts; `npm test` installs openssh-server when it is missing, and
// these tests fail, not skip, without it). The key and known_hosts reach ssh only through the
// source's `sshKeyFile` and `knownHostsFile`.

/** Hang guard on an export and deploy, and on a fetch: far above what either takes on a busy machine. */
const HANG_GUARD_MS = 300_000;
const FETCH_GUARD_MS = 120_000;
const DOMAIN = 'docs.ssh.test';

interface World {
  app: TestAppliance;
  repo: DocsRepo;
  sshd: SshGitServer;
  /** The source's key and known_hosts files (copies the test may overwrite). */
  keyFile: string;
  knownHostsFile: string;
}

/** A repository behind sshd, and an appliance whose site follows its `main` over ssh. */
async function world(t: ExecutionContext): Promise<World> {
  const repo = await makeDocsRepo();
  const sshd = await startSshGitServer(join(repo.root, 'sshd'));
  const secrets = await makeTempDir('enclave-ssh-secrets-');
  const keyFile = join(secrets, 'deploy_key');
  const knownHostsFile = join(secrets, 'known_hosts');
  await copyFile(sshd.clientKeyFile, keyFile);
  await copyFile(sshd.knownHostsFile, knownHostsFile);
  const app = await startTestAppliance({
    overrides: { sites: [{ domain: DOMAIN, source: { git: sshd.url(repo.bare), branch: 'main', sshKeyFile: keyFile, knownHostsFile } }] },
  });
  t.teardown(async () => {
    await app.close();
    await sshd.close();
  });
  return { app, repo, sshd, keyFile, knownHostsFile };
}

async function page(app: TestAppliance): Promise<string> {
  return (await getSite(app.port, DOMAIN, '/')).body;
}

/** Starts an update through the hosted API and waits for its end. */
async function update(app: TestAppliance): Promise<{ status: string; summary: string }> {
  const started = await app.api(`/v1/project/update/${app.projectId}`, { method: 'POST' });
  const { statusId } = (await started.json()) as { statusId: string };
  return waitUntil(
    `update ${statusId} to end`,
    async () => {
      const body = (await (await app.api(`/v1/project/update-status/${statusId}`)).json()) as { status: string; summary: string };
      return body.status === 'success' || body.status === 'failure' ? body : null;
    },
    HANG_GUARD_MS,
  );
}

const firstDeploy = (app: TestAppliance) =>
  waitUntil('first deploy', async () => app.features.sources.state.site(DOMAIN).liveSha, HANG_GUARD_MS);

test.serial('an ssh:// source is cloned and deployed at start, and a new commit is fetched and deployed', async (t) => {
  const { app, repo, sshd } = await world(t);
  t.is(await firstDeploy(app), await git(repo.bare, 'rev-parse', 'main'));
  t.regex(await page(app), /First version of the welcome page/);
  t.regex(sshd.log(), new RegExp(`Accepted publickey for ${sshd.user} from 127\\.0\\.0\\.1`), 'the clone came through sshd with the key');

  const second = await repo.commit({ 'index.mdx': '---\ntitle: Welcome\n---\n\nSecond version, over ssh.\n' }, 'Reword over ssh');
  const done = await update(app);
  t.is(done.status, 'success', done.summary);
  t.is(app.features.sources.state.site(DOMAIN).liveSha, second);
  t.regex(await page(app), /Second version, over ssh/);
});

test.serial('a host key that does not match known_hosts, or a key sshd refuses, fails clearly and keeps the live version', async (t) => {
  const { app, repo, sshd, keyFile, knownHostsFile } = await world(t);
  const live = await firstDeploy(app);
  await repo.commit({ 'index.mdx': '# Should not go live\n' }, 'Change');
  const trusted = await readFile(knownHostsFile, 'utf8');

  // Another server's key for the same host and port: a man in the middle, as ssh sees it.
  const other = await makeSshKey(await makeTempDir('enclave-ssh-other-'), 'impostor');
  await writeFile(knownHostsFile, `${knownHostsEntry(sshd.port, other)}\n`);
  const hostKey = await update(app);
  t.is(hostKey.status, 'failure');
  t.regex(hostKey.summary, /^git fetch of ssh:\/\/\S+ \(main\) failed: .*Host key verification failed/s);
  t.notRegex(hostKey.summary, /timed out/);
  t.is(app.features.sources.state.site(DOMAIN).liveSha, live);
  t.regex(await page(app), /First version of the welcome page/);
  const ready = (await (await fetch(`${app.url}/_enclave/ready`)).json()) as { modules: { sources: { status: string; detail: string } } };
  t.is(ready.modules.sources.status, 'degraded');
  t.regex(ready.modules.sources.detail, /Host key verification failed/);

  // The right host, a key it does not know.
  await writeFile(knownHostsFile, trusted);
  const strangerDir = await makeTempDir('enclave-ssh-stranger-');
  await makeSshKey(strangerDir, 'stranger');
  await copyFile(join(strangerDir, 'stranger'), keyFile);
  const clientKey = await update(app);
  t.is(clientKey.status, 'failure');
  t.regex(clientKey.summary, /Permission denied \(publickey\)/);
  t.notRegex(clientKey.summary, /timed out/);
  t.is(app.features.sources.state.site(DOMAIN).liveSha, live);
  t.regex(await page(app), /First version of the welcome page/);

  // Both files put right: the next update goes through (they are read at each fetch).
  await copyFile(sshd.clientKeyFile, keyFile);
  const fixed = await update(app);
  t.is(fixed.status, 'success', fixed.summary);
  t.regex(await page(app), /Should not go live/);
});

test('no prompt waits: an unknown host, a key with a passphrase and no key at all fail at once with ssh’s reason', async (t) => {
  const repo = await makeDocsRepo();
  const sshd = await startSshGitServer(join(repo.root, 'sshd'));
  t.teardown(() => sshd.close());
  const dir = await makeTempDir('enclave-ssh-prompts-');
  const locked = await makeSshKey(dir, 'locked', 'a passphrase nobody types');
  await sshd.authorize(locked);
  const emptyKnownHosts = join(dir, 'empty_known_hosts');
  await writeFile(emptyKnownHosts, '');
  const source = { git: sshd.url(repo.bare), branch: 'main', knownHostsFile: sshd.knownHostsFile, sshKeyFile: sshd.clientKeyFile };
  // With the hang guard as the time limit, a prompt that waited would end as "timed out".
  const fetchFails = async (changes: Partial<typeof source>, reason: RegExp, clone: string) => {
    const err = await t.throwsAsync(fetchGitSource({ ...source, ...changes }, join(dir, clone), { timeoutMs: FETCH_GUARD_MS }), {
      instanceOf: GitFetchError,
    });
    t.regex(err?.message ?? '', reason);
    t.notRegex(err?.message ?? '', /timed out/);
  };
  await fetchFails({ knownHostsFile: emptyKnownHosts }, /Host key verification failed/, 'unknown-host');
  await fetchFails({ sshKeyFile: join(dir, 'locked') }, /Permission denied \(publickey\)/, 'passphrase');
  await fetchFails({ sshKeyFile: undefined }, /Permission denied \(publickey\)/, 'no-key');
  t.deepEqual(await fetchGitSource(source, join(dir, 'good'), { timeoutMs: FETCH_GUARD_MS }), {
    sha: await git(repo.bare, 'rev-parse', 'main'),
  });
});
