// npm run bench:git-ssh [-- --fetches N] [--pages N]
// A fetch of an unchanged repository over ssh, through a real OpenSSH server
// (test/helpers/sshGitServer.ts, as in test/git/sshGitSource.int.test.ts), beside the same fetch
// over smart HTTP (test/helpers/gitHttpServer.ts) in the same run: --fetches of each (default
// 10), interleaved so machine load falls on both alike, after one first fetch each that clones.
// The repository is the test fixture's two-page site, or the synthetic site of --pages pages.
// A third row times ssh logging in to run `true` with the same command: the part of a fetch
// that is ssh's (key exchange, login, the remote shell), whatever git does.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fetchGitSource } from '../src/features/sources/fetchGitSource.js';
import { gitAccess } from '../src/features/sources/gitAccess.js';
import type { GitSourceConfig } from '../src/config/sections/gitSource.js';
import { git, makeDocsRepo } from '../test/git/gitSourceFixture.js';
import { startGitHttpServer } from '../test/helpers/gitHttpServer.js';
import { startSshGitServer } from '../test/helpers/sshGitServer.js';
import { makeTempDir } from '../test/helpers/testAppliance.js';

const flag = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : Number(process.argv[at + 1]) || fallback;
};
const fetches = flag('--fetches', 10);
const pages = flag('--pages', 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

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
  const clones = await makeTempDir('enclave-bench-ssh-');
  const sources: Record<string, GitSourceConfig> = {
    ssh: { git: sshd.url(repo.bare), branch: 'main', sshKeyFile: sshd.clientKeyFile, knownHostsFile: sshd.knownHostsFile },
    http: { git: `${http.url}/docs.git`, branch: 'main' },
  };
  const times: Record<string, number[]> = { ssh: [], http: [], 'ssh login alone (`ssh … true`, the floor)': [] };
  // The same ssh command a fetch runs, logging in to run `true`: what ssh itself costs per fetch.
  const login = `${(await gitAccess(sources.ssh!)).sshCommand} -p ${sshd.port} ${sshd.user}@127.0.0.1 true`;
  try {
    for (const [name, source] of Object.entries(sources)) await fetchGitSource(source, join(clones, name), { timeoutMs: 120_000 });
    for (let i = 0; i < fetches; i++) {
      for (const [name, source] of Object.entries(sources)) {
        const start = performance.now();
        await fetchGitSource(source, join(clones, name), { timeoutMs: 120_000 });
        times[name]!.push(performance.now() - start);
      }
      const start = performance.now();
      execFileSync('sh', ['-c', login], { stdio: 'ignore' });
      times['ssh login alone (`ssh … true`, the floor)']!.push(performance.now() - start);
    }
  } finally {
    await sshd.close();
    await http.close();
  }
  console.log(`bench:git-ssh — ${pages || 'two'} pages, ${fetches} fetches each, load ${loadavg()[0]?.toFixed(1)} (1-min average)`);
  console.log('| fetch of the unchanged repository | median | slowest | target |');
  console.log('|---|---|---|---|');
  for (const [name, xs] of Object.entries(times)) {
    const floor = name.startsWith('ssh login');
    console.log(
      `| ${floor ? name : `over ${name}`} | ${median(xs).toFixed(0)} ms | ${Math.max(...xs).toFixed(0)} ms | ${floor ? '—' : '< 200 ms'} |`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
