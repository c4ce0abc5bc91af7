// npm run bench:git-ssh [-- --fetches N] [--pages N]
// A fetch of an unchanged repository over ssh, through a real OpenSSH server
// (test/helpers/sshGitServer.ts, as in test/git/sshGitSource.int.test.ts), beside the same fetch
// over smart HTTP (test/helpers/gitHttpServer.ts) in the same run: --fetches of each (default
// 10), interleaved so machine load falls on both alike, after one first fetch each that clones.
// ssh is timed twice: through the appliance's shared connection (SshConnections: the first
// fetch starts its master) and logging in for every fetch, as with
// `sources.sshConnectionIdleSeconds: 0`. The last row times ssh logging in to run `true` with
// the same options: the part of a direct fetch that is ssh's (key exchange, login, the remote
// shell), whatever git does.
// The repository is the test fixture's two-page site, or the synthetic site of --pages pages.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import type { GitSourceConfig } from '../src/config/sections/gitSource.js';
import { fetchGitSource } from '../src/features/sources/fetchGitSource.js';
import { gitAccess } from '../src/features/sources/gitAccess.js';
import { masterLauncher } from '../src/features/sources/ssh/createSshConnections.js';
import { SshConnections } from '../src/features/sources/ssh/SshConnections.js';
import { systemClock } from '../src/platform/Clock.js';
import { git, makeDocsRepo } from '../test/git/gitSourceFixture.js';
import { startGitHttpServer } from '../test/helpers/gitHttpServer.js';
import { startSshGitServer } from '../test/helpers/sshGitServer.js';
import { makeTempDir } from '../test/helpers/testAppliance.js';

const flag = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]) || fallback;
};
const fetches = Math.max(10, flag('--fetches', 10));
const pages = flag('--pages', 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const LOGIN = 'ssh login alone (`ssh … true`, the floor of a direct fetch)';

async function main(): Promise<void> {
  const repo = await makeDocsRepo();
  if (pages > 0) {
    execFileSync(process.execPath, [resolve('../shared/bin/gen-corpus.mjs'), join(repo.work, 'synthetic'), String(pages)], {
      stdio: 'ignore',
    });
    await git(repo.work, 'add', '--all');
    await git(repo.work, 'commit', '--quiet', '-m', `Synthetic site of ${pages} pages`);
    await git(repo.work, 'push', '--quiet', repo.bare, 'main');
  }
  const sshd = await startSshGitServer(join(repo.root, 'sshd'));
  const http = await startGitHttpServer(repo.root);
  const scratch = await makeTempDir('enclave-bench-ssh-');
  const shared = new SshConnections({
    dir: join(scratch, 'ssh'),
    clock: systemClock,
    logger: pino({ level: 'warn' }),
    idleMs: 600_000,
    launcher: masterLauncher(),
  });
  await shared.prepare();
  const sshSource: GitSourceConfig = {
    git: sshd.url(repo.bare),
    branch: 'main',
    sshKeyFile: sshd.clientKeyFile,
    knownHostsFile: sshd.knownHostsFile,
  };
  const ways: Record<string, { source: GitSourceConfig; shared?: SshConnections }> = {
    'ssh, shared connection': { source: sshSource, shared },
    'ssh, a login per fetch': { source: sshSource },
    'smart HTTP': { source: { git: `${http.url}/docs.git`, branch: 'main' } },
  };
  const first: Record<string, number> = {};
  const times: Record<string, number[]> = Object.fromEntries([...Object.keys(ways), LOGIN].map((k) => [k, []]));
  const fetchBy = (name: string) => {
    const way = ways[name]!;
    return fetchGitSource(way.source, join(scratch, name.replace(/\W+/g, '-')), { timeoutMs: 120_000, ssh: way.shared });
  };
  // The same options a direct fetch runs ssh with, logging in to run `true`.
  const login = `${(await gitAccess(sshSource)).sshCommand} -p ${sshd.port} ${sshd.user}@127.0.0.1 true`;
  const loginsBefore = sshd.logins();
  try {
    for (const name of Object.keys(ways)) {
      const start = performance.now();
      await fetchBy(name);
      first[name] = performance.now() - start;
    }
    for (let i = 0; i < fetches; i++) {
      for (const name of Object.keys(ways)) {
        const start = performance.now();
        await fetchBy(name);
        times[name]!.push(performance.now() - start);
      }
      const start = performance.now();
      execFileSync('sh', ['-c', login], { stdio: 'ignore' });
      times[LOGIN]!.push(performance.now() - start);
    }
  } finally {
    await shared.stop();
    await sshd.close();
    await http.close();
  }
  const logins = sshd.logins() - loginsBefore;
  console.log(`bench:git-ssh — ${pages || 'two'} pages, ${fetches} later fetches each, load ${loadavg()[0]?.toFixed(1)} (1-min average)`);
  console.log(`sshd accepted ${logins} logins: 1 shared connection + ${fetches + 1} direct fetches + ${fetches} bare logins expected`);
  console.log('| fetch of the unchanged repository | first fetch (clone) | later fetches: median | slowest | target |');
  console.log('|---|---|---|---|---|');
  for (const [name, xs] of Object.entries(times)) {
    const firstMs = first[name] === undefined ? '—' : `${first[name]!.toFixed(0)} ms`;
    const target = name === LOGIN ? '—' : '< 200 ms';
    console.log(`| ${name} | ${firstMs} | ${median(xs).toFixed(0)} ms | ${Math.max(...xs).toFixed(0)} ms | ${target} |`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
