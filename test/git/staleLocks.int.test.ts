import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { gitSourceSchema } from '../../src/config/sections/gitSource.js';
import { fetchGitSource } from '../../src/features/sources/fetchGitSource.js';
import { startGitHttpServer } from '../helpers/gitHttpServer.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { git, makeDocsRepo } from './gitSourceFixture.js';

// A git killed mid-write (the appliance killed during a fetch, or a fetch killed at its time
// limit or at shutdown) leaves lock files in the clone; every later fetch failed on them
// ("cannot lock ref") until someone removed them by hand. `npm run test:load` found it: the
// appliance in sshConnectionLifetime.int was killed mid-fetch and the next start never deployed.

/** Bound on one fetch from the local test server: a hang guard, not a timing. */
const FETCH_GUARD_MS = 120_000;

async function world(t: import('ava').ExecutionContext) {
  const repo = await makeDocsRepo();
  const server = await startGitHttpServer(repo.root);
  t.teardown(() => server.close());
  const source = gitSourceSchema.parse({ git: `${server.url}/docs.git`, branch: 'main' });
  const clone = join(await makeTempDir('enclave-stale-locks-'), 'sources', 'docs.test');
  return { repo, source, clone };
}

test('lock files a killed git left in the clone are removed, reported, and the next fetch brings the new commit', async (t) => {
  const { repo, source, clone } = await world(t);
  const first = await fetchGitSource(source, clone, { timeoutMs: FETCH_GUARD_MS });
  const gitDir = join(clone, '.git');
  // What a fetch killed while updating its ref and the packed refs leaves behind.
  await writeFile(join(gitDir, 'refs', 'remotes', 'origin', 'main.lock'), `${first.sha}\n`);
  await writeFile(join(gitDir, 'packed-refs.lock'), '');
  await writeFile(join(gitDir, 'shallow.lock'), '');
  const next = await repo.commit({ 'index.mdx': '---\ntitle: Home\n---\n\nSecond version.\n' }, 'second');
  const reported: string[][] = [];
  const fetched = await fetchGitSource(source, clone, { timeoutMs: FETCH_GUARD_MS, onStaleLocks: (paths) => reported.push(paths) });
  t.is(fetched.sha, next);
  t.deepEqual(reported, [['packed-refs.lock', join('refs', 'remotes', 'origin', 'main.lock'), 'shallow.lock']]);
  t.deepEqual((await readdir(join(gitDir, 'refs', 'remotes', 'origin'))).sort(), ['main']);
  // Nothing stale the next time: nothing reported.
  await fetchGitSource(source, clone, { timeoutMs: FETCH_GUARD_MS, onStaleLocks: (paths) => reported.push(paths) });
  t.is(reported.length, 1);
});

test('a clone cut short before `git init` (an empty folder, a staging folder beside it) does not stop the first fetch', async (t) => {
  const { repo, source, clone } = await world(t);
  // What a kill left: the clone's folder made but empty (as an earlier version made it), and the
  // staging folder of an init this version was running.
  await mkdir(clone, { recursive: true });
  await mkdir(join(clone, '..', '.docs.test.init-abc123', '.git'), { recursive: true });
  const fetched = await fetchGitSource(source, clone, { timeoutMs: FETCH_GUARD_MS });
  t.is(fetched.sha, await git(repo.bare, 'rev-parse', 'main'));
  t.true((await readdir(join(clone, '.git'))).includes('HEAD'));
  t.deepEqual((await readdir(join(clone, '..'))).sort(), ['.docs.test.init-abc123', 'docs.test'], 'its own staging folder is gone');
});
