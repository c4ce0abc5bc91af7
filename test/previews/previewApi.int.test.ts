import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { applianceFetch, startTestAppliance } from '../helpers/testAppliance.js';
import { git } from '../git/gitSourceFixture.js';
import { DOMAIN, pathOf, previewWorld, waitForStatus } from './previewFixture.js';

const HOUR = 3_600_000;

test('a branch preview: API errors, served under /_preview/ with working links and assets, noindex, banner, redeploy, live site untouched, list, delete, restart, expiry', async (t) => {
  const clock = new ManualClock('2026-11-01T08:00:00.000Z');
  const world = await previewWorld(t, { clock });
  const { repo, site, dataDir } = world;
  let { app } = world;
  const liveSha = app.features.sources.state.site(DOMAIN).liveSha;
  const liveVersion = app.features.deployments.activeSite.current(DOMAIN)?.installed?.id;
  t.truthy(liveVersion);
  const preview = (projectId: string, json: unknown) => app.api(`/v1/project/preview/${projectId}`, { method: 'POST', json });

  // Errors, as the hosted API shapes them.
  t.is((await preview(app.projectId, {})).status, 400);
  for (const branch of ['-x', 'a..b', 'has space', 'ends/']) t.is((await preview(app.projectId, { branch })).status, 400, branch);
  // Another project's id is refused before any lookup, as on every project route.
  t.is((await preview('no-such-project', { branch: 'main' })).status, 403);

  const sha1 = await repo.commit(
    { 'index.mdx': '---\ntitle: Welcome\n---\n\nDraft intro from the branch.\n' },
    'Draft intro',
    'feature/new-intro',
  );
  const asked = performance.now();
  const res = await preview(app.projectId, { branch: 'feature/new-intro' });
  t.is(res.status, 202);
  const first = (await res.json()) as { statusId: string; previewUrl: string };
  t.regex(first.statusId, /^upd_/);
  t.regex(first.previewUrl, /^http:\/\/docs\.preview\.test(:\d+)?\/_preview\/feature-new-intro-[0-9a-f]{6}\/$/);
  const status = await waitForStatus(app.api, first.statusId);
  t.is(status.status, 'success', JSON.stringify(status));
  // A figure for the report, not a check: it depends on the machine's load.
  t.log(`preview of a two-page branch: POST to success in ${Math.round(performance.now() - asked)} ms`);
  t.is((status.commit as { sha: string }).sha, sha1);
  t.is(status.subdomain, DOMAIN);
  const base = pathOf(first.previewUrl);

  // The preview's pages, links, assets and search index, all below the prefix.
  const page = await site(`${app.url}${base}`);
  t.is(page.status, 200);
  t.is(page.headers.get('x-robots-tag'), 'noindex, nofollow');
  t.is(page.headers.get('x-enclave-site'), null, 'no mark: no feedback widget, no search events');
  const html = await page.text();
  t.true(html.includes('Draft intro from the branch.'));
  t.true(html.includes('<meta name="robots" content="noindex, nofollow">'));
  t.regex(html, /Preview of branch <strong data-preview-branch>feature\/new-intro<\/strong>/);
  t.true(html.includes(`>${sha1.slice(0, 7)}</code>`));
  const setupHref = /href="([^"]*guides\/setup[^"]*)"/.exec(html)?.[1];
  t.truthy(setupHref, 'the nav links to the setup page');
  const setupUrl = new URL(setupHref!, `${app.url}${base}`);
  t.true(setupUrl.pathname.startsWith(base), `${setupUrl.pathname} stays below the prefix`);
  const setup = await site(setupUrl.href);
  t.is(setup.status, 200);
  t.true((await setup.text()).includes('Install the thing.'));
  const css = /<link[^>]+href="([^"]+\.css)"/.exec(html)?.[1];
  t.truthy(css);
  const cssRes = await site(new URL(css!, `${app.url}${base}`).href);
  t.is(cssRes.status, 200);
  t.regex(cssRes.headers.get('content-type') ?? '', /text\/css/);
  const searchIndex = /data-search-index="([^"]+)"/.exec(html)?.[1];
  t.truthy(searchIndex);
  t.is((await site(new URL(searchIndex!, `${app.url}${base}`).href)).status, 200);
  const bare = await site(`${app.url}${base.slice(0, -1)}`);
  t.is(bare.status, 301);
  t.is(bare.headers.get('location'), base);
  t.is((await site(`${app.url}/_preview/nothing-000000/`)).status, 404);

  // The live site is untouched.
  const live = await site(`${app.url}/`);
  const liveHtml = await live.text();
  t.true(liveHtml.includes('First version of the welcome page.'));
  t.false(liveHtml.includes('enclave-preview-banner'));
  t.is(live.headers.get('x-robots-tag'), null);
  t.is(app.features.sources.state.site(DOMAIN).liveSha, liveSha);
  t.is(app.features.deployments.activeSite.current(DOMAIN)?.installed?.id, liveVersion);

  // A second call redeploys the branch at the same URL; calls while that waits for the site's
  // turn (held here by the test) share its status, as updates do.
  const sha2 = await repo.commit({ 'index.mdx': '---\ntitle: Welcome\n---\n\nSecond draft.\n' }, 'Second draft', 'feature/new-intro');
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  void app.features.sources.sync.inTurn(DOMAIN, () => held);
  const again = (await (await preview(app.projectId, { branch: 'feature/new-intro' })).json()) as typeof first;
  t.is(again.previewUrl, first.previewUrl);
  t.not(again.statusId, first.statusId);
  const burst = (await (await preview(app.projectId, { branch: 'feature/new-intro' })).json()) as typeof first;
  t.is(burst.statusId, again.statusId);
  t.is(((await (await app.api(`/v1/project/update-status/${again.statusId}`)).json()) as { status: string }).status, 'queued');
  release();
  t.is((await waitForStatus(app.api, again.statusId)).status, 'success');
  const redeployed = await (await site(`${app.url}${base}`)).text();
  t.true(redeployed.includes('Second draft.'));
  t.true(redeployed.includes(`>${sha2.slice(0, 7)}</code>`));
  t.deepEqual((await readdir(join(dataDir, 'previews'))).length, 1, 'the replaced version is deleted');

  // A branch the remote lacks: accepted, then a failure that says so.
  const missing = (await (await preview(app.projectId, { branch: 'no-such-branch' })).json()) as typeof first;
  const failed = await waitForStatus(app.api, missing.statusId);
  t.is(failed.status, 'failure');
  t.regex(String(failed.summary), /Branch no-such-branch does not exist on the remote/);
  t.is((await site(`${app.url}${pathOf(missing.previewUrl)}`)).status, 404);

  // Listed, and deletable by branch name or id.
  const listed = (await (await app.api(`/v1/project/previews/${app.projectId}`)).json()) as { previews: Record<string, unknown>[] };
  t.deepEqual(
    listed.previews.map((p) => [p.branch, p.status, p.commit]),
    [
      ['no-such-branch', 'failed', null],
      ['feature/new-intro', 'ready', sha2],
    ],
  );
  t.is(listed.previews[1].expiresAt, new Date(clock.now().getTime() + 168 * HOUR).toISOString());
  t.is((await app.api(`/v1/project/preview/${app.projectId}/no-such-branch`, { method: 'DELETE' })).status, 204);
  t.is((await app.api(`/v1/project/preview/${app.projectId}/no-such-branch`, { method: 'DELETE' })).status, 404);

  // A restart keeps the preview, served as before.
  const { key } = app;
  await app.close();
  app = await startTestAppliance({ overrides: world.overrides, clock, dataDir });
  world.app = app;
  const api = applianceFetch(app.url, key);
  const restarted = await site(`${app.url}${base}`);
  t.is(restarted.status, 200);
  t.true((await restarted.text()).includes('Second draft.'));
  const relisted = (await (await api(`/v1/project/previews/${app.projectId}`)).json()) as { previews: Record<string, unknown>[] };
  t.deepEqual(
    relisted.previews.map((p) => p.previewUrl),
    [first.previewUrl.replace(/:\d+\//, `:${app.port}/`)],
  );

  // Expiry: the task deletes it once its time has run out, not before.
  const expiry = app.features.sources.tasks?.find((task) => task.name === 'preview-expiry');
  t.truthy(expiry);
  await expiry!.run(new Date(clock.now().getTime() + 167 * HOUR));
  t.is((await site(`${app.url}${base}`)).status, 200);
  await expiry!.run(new Date(clock.now().getTime() + 169 * HOUR));
  t.is((await site(`${app.url}${base}`)).status, 404);
  t.deepEqual(await readdir(join(dataDir, 'previews')), []);
  t.is(await git(repo.bare, 'rev-parse', 'main'), liveSha!);
});
