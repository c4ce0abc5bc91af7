import { createHmac } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { startGitHttpServer, type GitHttpServer } from '../helpers/gitHttpServer.js';
import { makeTempDir, startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { getSite, git, makeDocsRepo, type DocsRepo } from './gitSourceFixture.js';

/**
 * Bound on a wait for an export and deploy: a hang guard, far above the seconds they take on a
 * quiet machine, since each test's appliance exports while other suites load the machine.
 */
const HANG_GUARD_MS = 300_000;
const DOMAIN = 'docs.git.test';
const SECRET = 'webhook-secret-for-tests';

interface World {
  app: TestAppliance;
  repo: DocsRepo;
  server: GitHttpServer;
}

/** A git server with a token, and an appliance whose site follows its `main` (webhook secret set). */
async function world(t: import('ava').ExecutionContext, options: { path?: string } = {}): Promise<World> {
  const repo = await makeDocsRepo(options.path ?? '');
  const server = await startGitHttpServer(repo.root, { basicAuth: { user: 'enclave', password: 'tok-123' } });
  const tokenFile = join(repo.root, 'token');
  const webhookSecretFile = join(repo.root, 'webhook-secret');
  await writeFile(tokenFile, 'tok-123\n');
  await writeFile(webhookSecretFile, `${SECRET}\n`);
  const app = await startTestAppliance({
    overrides: {
      sites: [
        {
          domain: DOMAIN,
          source: {
            git: `${server.url}/docs.git`,
            branch: 'main',
            tokenFile,
            webhookSecretFile,
            ...(options.path ? { path: options.path } : {}),
          },
        },
      ],
    },
  });
  t.teardown(async () => {
    await app.close();
    await server.close();
  });
  return { app, repo, server };
}

async function page(app: TestAppliance, path = '/'): Promise<string> {
  return (await getSite(app.port, DOMAIN, path)).body;
}

/** A Gitea push delivery for `branch`, signed with `secret`. */
function giteaPush(branch: string, after: string, secret = SECRET): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({ ref: `refs/heads/${branch}`, before: '0'.repeat(40), after, commits: [] });
  const signature = createHmac('sha256', secret).update(body).digest('hex');
  return { headers: { 'Content-Type': 'application/json', 'X-Gitea-Event': 'push', 'X-Gitea-Signature': signature }, body };
}

async function waitForUpdate(app: TestAppliance, statusId: string): Promise<Record<string, unknown>> {
  return waitUntil(
    `update ${statusId} to end`,
    async () => {
      const res = await app.api(`/v1/project/update-status/${statusId}`);
      const body = (await res.json()) as Record<string, unknown>;
      return body.status === 'success' || body.status === 'failure' ? body : null;
    },
    HANG_GUARD_MS,
  );
}

test.serial('a git source goes live at start, and a signed push deploys the new commit with its changed files', async (t) => {
  const { app, repo, server } = await world(t);
  const first = await waitUntil('first deploy', async () => app.features.sources.state.site(DOMAIN).liveSha, HANG_GUARD_MS);
  t.is(first, await git(repo.bare, 'rev-parse', 'main'));
  t.regex(await page(app), /First version of the welcome page/);
  t.true(
    server.requests.some((r) => r.startsWith('POST /docs.git/git-upload-pack')),
    'fetched through smart HTTP',
  );

  const second = await repo.commit(
    { 'index.mdx': '---\ntitle: Welcome\n---\n\nSecond version, pushed.\n', 'new.mdx': '# New\n' },
    'Reword the welcome',
  );
  const delivery = giteaPush('main', second);
  const res = await fetch(`${app.url}/_enclave/git-webhook/${DOMAIN}`, { method: 'POST', ...delivery });
  t.is(res.status, 202);
  const { statusId } = (await res.json()) as { statusId: string };
  const update = await waitForUpdate(app, statusId);
  t.is(update.status, 'success', JSON.stringify(update));
  t.is(update.source, 'webhook');
  t.is(update.subdomain, DOMAIN);
  t.deepEqual(update.commit, {
    sha: second,
    ref: 'refs/heads/main',
    message: 'Reword the welcome',
    filesChanged: { added: ['new.mdx'], modified: ['index.mdx'], removed: [] },
  });
  t.deepEqual(update.author, { name: 'Docs Writer', email: 'writer@test.local' });
  t.regex(await page(app), /Second version, pushed/);
});

test.serial('a push whose export has failed pages leaves the live version serving, and says why', async (t) => {
  const { app, repo } = await world(t);
  const first = await waitUntil('first deploy', async () => app.features.sources.state.site(DOMAIN).liveSha, HANG_GUARD_MS);
  await repo.commit({ 'index.mdx': '---\ntitle: Welcome\n---\n\n<Card title="x">\n\nunclosed\n' }, 'Break the welcome page');
  const res = await fetch(`${app.url}/_enclave/git-webhook/${DOMAIN}`, { method: 'POST', ...giteaPush('main', 'f'.repeat(40)) });
  const { statusId } = (await res.json()) as { statusId: string };
  const update = await waitForUpdate(app, statusId);
  t.is(update.status, 'failure');
  t.regex(String(update.summary), /1 failed page\(s\); the live version stays/);
  t.regex(String(update.exportJobId), /^se_/);
  t.is(app.features.sources.state.site(DOMAIN).liveSha, first);
  t.regex(await page(app), /First version of the welcome page/);
  const listed = (await (await app.api(`/v1/project/updates/${app.projectId}`)).json()) as { updates: { _id: string; status: string }[] };
  t.like(listed.updates[0], { _id: statusId, status: 'failure' }, 'the dashboard lists it');
  const ready = (await (await fetch(`${app.url}/_enclave/ready`)).json()) as Record<string, unknown>;
  t.regex(JSON.stringify(ready), /failed page/);
});

test.serial('a fetch that fails (token revoked) keeps the live version and names git’s reason', async (t) => {
  const { app, repo } = await world(t);
  await waitUntil('first deploy', async () => app.features.sources.state.site(DOMAIN).liveSha, HANG_GUARD_MS);
  await writeFile(join(repo.root, 'token'), 'revoked\n');
  await repo.commit({ 'index.mdx': '# Changed\n' }, 'Change');
  const started = await app.api(`/v1/project/update/${app.projectId}`, { method: 'POST' });
  t.is(started.status, 202);
  const update = await waitForUpdate(app, ((await started.json()) as { statusId: string }).statusId);
  t.is(update.status, 'failure');
  t.is(update.source, 'api');
  t.regex(
    String(update.summary),
    /git fetch of http:\/\/127\.0\.0\.1:\d+\/docs\.git \(main\) failed: .*(401|Authentication|could not read)/i,
  );
  t.notRegex(String(update.summary), /revoked|tok-123/);
  t.regex(await page(app), /First version of the welcome page/);
});

test.serial('webhooks: a wrong signature is 401, another branch or a ping is acknowledged and ignored', async (t) => {
  const { app } = await world(t);
  const url = `${app.url}/_enclave/git-webhook/${DOMAIN}`;
  const forged = giteaPush('main', 'a'.repeat(40), 'not-the-secret');
  t.is((await fetch(url, { method: 'POST', ...forged })).status, 401);
  t.is((await fetch(url, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } })).status, 401);
  const other = await fetch(url, { method: 'POST', ...giteaPush('feature/x', 'a'.repeat(40)) });
  t.is(other.status, 200);
  t.deepEqual(await other.json(), { ignored: 'push to feature/x, not the deployment branch main' });
  t.is((await fetch(`${app.url}/_enclave/git-webhook/unknown.test`, { method: 'POST', ...giteaPush('main', 'a'.repeat(40)) })).status, 404);
});

test.serial('poll: an unchanged branch records nothing; a new commit deploys, and the docs may sit in a folder', async (t) => {
  const { app, repo } = await world(t, { path: 'docs' });
  await waitUntil('first deploy', async () => app.features.sources.state.site(DOMAIN).liveSha, HANG_GUARD_MS);
  const sync = app.features.sources.sync;
  const before = app.features.sources.state.updatesOf(DOMAIN).length;
  await sync.poll(DOMAIN);
  t.is(app.features.sources.state.updatesOf(DOMAIN).length, before, 'no update for an unchanged branch');
  const sha = await repo.commit({ 'guides/setup.mdx': '---\ntitle: Setup\n---\n\nPolled change.\n' }, 'Setup wording');
  await sync.poll(DOMAIN);
  const [latest] = app.features.sources.state.updatesOf(DOMAIN);
  t.is(latest?.status, 'success', JSON.stringify(latest));
  t.is(latest?.source, 'poll');
  t.deepEqual(latest?.commit?.filesChanged, { added: [], modified: ['guides/setup.mdx'], removed: [] });
  t.is(app.features.sources.state.site(DOMAIN).liveSha, sha);
  t.regex(await page(app, '/guides/setup'), /Polled change/);
});

test.serial('after a restart the live commit is served at once and not exported again', async (t) => {
  const repo = await makeDocsRepo();
  const server = await startGitHttpServer(repo.root);
  t.teardown(() => server.close());
  const overrides = { sites: [{ domain: DOMAIN, source: { git: `${server.url}/docs.git`, branch: 'main' } }] };
  const dataDir = await makeTempDir();
  const first = await startTestAppliance({ overrides, dataDir });
  const live = await waitUntil('first deploy', async () => first.features.sources.state.site(DOMAIN).liveSha, HANG_GUARD_MS);
  await first.close();

  const second = await startTestAppliance({ overrides, dataDir });
  t.teardown(() => second.close());
  t.regex(await page(second), /First version of the welcome page/, 'served from the kept version before any fetch');
  await second.features.sources.sync.poll(DOMAIN);
  t.is(second.features.sources.state.site(DOMAIN).liveSha, live);
  t.deepEqual(
    second.features.exports.jobs.list().map((j) => j.status),
    ['completed'],
    'only the first start exported',
  );
});
