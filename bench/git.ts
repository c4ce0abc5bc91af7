// npm run bench:git [-- --pages N] [--fetches N]
// Push-to-live on a git source, measured in-process against a real smart-HTTP git server
// (`git http-backend`, test/helpers/gitHttpServer.ts): the synthetic site of --pages pages
// (default 10,000, ../shared/bin/gen-corpus.mjs) is committed to a repository, the appliance
// deploys it once, then (1) a fetch of the unchanged repository is timed --fetches times
// (default 20; target < 200 ms), and (2) one page is changed, pushed, and a signed Gitea webhook
// sent: the time from the webhook's arrival to the new page being served is measured (the
// target is under 3 s, which needs incremental export; a full export runs today).
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fetchGitSource } from '../src/features/sources/fetchGitSource.js';
import { getSite, git, makeDocsRepo } from '../test/git/gitSourceFixture.js';
import { startGitHttpServer } from '../test/helpers/gitHttpServer.js';
import { startTestAppliance } from '../test/helpers/testAppliance.js';
import { waitUntil } from '../test/helpers/waitUntil.js';

const argValue = (flag: string, fallback: number) => Number(process.argv[process.argv.indexOf(flag) + 1] ?? fallback) || fallback;
const pages = process.argv.includes('--pages') ? argValue('--pages', 10_000) : 10_000;
const fetches = process.argv.includes('--fetches') ? argValue('--fetches', 20) : 20;
const DOMAIN = 'docs.bench.test';
const SECRET = 'bench-secret';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main(): Promise<void> {
  const repo = await makeDocsRepo();
  execFileSync(process.execPath, [resolve('../shared/bin/gen-corpus.mjs'), repo.work, String(pages)], { stdio: 'ignore' });
  await git(repo.work, 'init', '--quiet', '--initial-branch=main');
  await git(repo.work, 'add', '--all');
  await git(repo.work, 'commit', '--quiet', '-m', `Synthetic site of ${pages} pages`);
  await git(repo.work, 'push', '--quiet', '--force', repo.bare, 'main');
  const server = await startGitHttpServer(repo.root);
  const secretFile = join(repo.root, 'secret');
  writeFileSync(secretFile, SECRET);
  const t0 = performance.now();
  const app = await startTestAppliance({
    overrides: { sites: [{ domain: DOMAIN, source: { git: `${server.url}/docs.git`, branch: 'main', webhookSecretFile: secretFile } }] },
  });
  try {
    await waitUntil('first deploy', async () => app.features.sources.state.site(DOMAIN).liveSha, 30 * 60_000);
    const firstDeploy = (performance.now() - t0) / 1000;

    const site = app.features.sources.sync.gitSites()[0]!;
    const fetchMs: number[] = [];
    for (let i = 0; i < fetches; i++) {
      const start = performance.now();
      await fetchGitSource(site.git!, site.source, { timeoutMs: 60_000 });
      fetchMs.push(performance.now() - start);
    }

    const target = readdirFirstPage(repo.work);
    const marker = `Changed by bench ${Date.now()}`;
    writeFileSync(join(repo.work, `${target}.mdx`), `${readFileSync(join(repo.work, `${target}.mdx`), 'utf8')}\n\n${marker}\n`);
    await git(repo.work, 'commit', '--quiet', '-am', 'One-page change');
    await git(repo.work, 'push', '--quiet', repo.bare, 'main');
    const body = JSON.stringify({ ref: 'refs/heads/main', after: await git(repo.work, 'rev-parse', 'HEAD') });
    const signature = createHmac('sha256', SECRET).update(body).digest('hex');
    const sent = performance.now();
    const res = await fetch(`${app.url}/_enclave/git-webhook/${DOMAIN}`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', 'X-Gitea-Event': 'push', 'X-Gitea-Signature': signature },
    });
    if (res.status !== 202) throw new Error(`webhook answered ${res.status}: ${await res.text()}`);
    await waitUntil('the changed page', async () => (await getSite(app.port, DOMAIN, `/${target}`)).body.includes(marker), 30 * 60_000);
    const pushToLive = (performance.now() - sent) / 1000;

    console.log(`bench:git — ${pages} pages, load ${loadavg()[0]?.toFixed(1)} (1-min average), ${fetches} fetches`);
    console.log('| measure | value | target |');
    console.log('|---|---|---|');
    console.log(`| first deploy (fetch + full export + deploy) | ${firstDeploy.toFixed(1)} s | — |`);
    console.log(`| fetch of the unchanged repository, median | ${median(fetchMs).toFixed(0)} ms | < 200 ms |`);
    console.log(`| fetch of the unchanged repository, max | ${Math.max(...fetchMs).toFixed(0)} ms | — |`);
    console.log(`| webhook → changed page served (one page) | ${pushToLive.toFixed(1)} s | < 3 s |`);
  } finally {
    await app.close();
    await server.close();
  }
}

/** The first page of the synthetic site's navigation (its path without .mdx). */
function readdirFirstPage(work: string): string {
  const docs = JSON.parse(readFileSync(join(work, 'docs.json'), 'utf8')) as { navigation: { tabs: { groups: { pages: string[] }[] }[] } };
  const page = docs.navigation.tabs[0]?.groups[0]?.pages[0];
  if (!page) throw new Error('the synthetic site has no page');
  return page;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
