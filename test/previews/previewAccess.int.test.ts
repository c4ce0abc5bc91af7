import test from 'ava';
import { fetchWithHost } from '../helpers/fetchWithHost.js';
import { DOMAIN, pathOf, previewWorld, waitForStatus } from './previewFixture.js';

const PASSWORD = 'preview readers only';

test("a preview follows the site's reader sign-in, keeps its prefix through sign-in, and leaves the preview host for the site's", async (t) => {
  const { app, repo, site } = await previewWorld(t, {
    auth: { mode: 'password', password: PASSWORD },
    hostPattern: '{branch}.preview.test',
  });
  const sha = await repo.commit({ 'guides/setup.mdx': '---\ntitle: Setup\n---\n\nDraft setup steps.\n' }, 'Draft setup', 'draft');
  const res = await app.api(`/v1/project/preview/${app.projectId}`, { method: 'POST', json: { branch: 'draft' } });
  t.is(res.status, 202);
  const { statusId, previewUrl } = (await res.json()) as { statusId: string; previewUrl: string };
  t.is((await waitForStatus(app.api, statusId)).status, 'success');
  // Sign-in cookies belong to the site's host: the URL handed out is the prefix one.
  t.regex(previewUrl, /^http:\/\/docs\.preview\.test:\d+\/_preview\/draft-[0-9a-f]{6}\/$/);
  const base = pathOf(previewUrl);
  const slug = base.split('/')[2];

  const anonymous = await site(`${app.url}${base}guides/setup`);
  t.is(anonymous.status, 302);
  t.is(anonymous.headers.get('location'), `/_enclave/auth/sign-in?returnTo=${encodeURIComponent(`${base}guides/setup`)}`);
  t.false((await anonymous.text()).includes('Draft setup steps.'));

  const signIn = await site(`${app.url}/_enclave/auth/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password: PASSWORD, returnTo: `${base}guides/setup` }).toString(),
  });
  t.is(signIn.status, 303);
  t.is(signIn.headers.get('location'), `${base}guides/setup`);
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
  const signedIn = await site(`${app.url}${base}guides/setup`, { headers: { cookie } });
  t.is(signedIn.status, 200);
  const html = await signedIn.text();
  t.true(html.includes('Draft setup steps.'));
  t.true(html.includes(`>${sha.slice(0, 7)}</code>`));

  // The preview host pattern matches, but a site with sign-in is read on its own host.
  const onPreviewHost = await fetchWithHost(`${slug}.preview.test:${app.port}`)(`${app.url}/guides/setup`);
  t.is(onPreviewHost.status, 302);
  t.is(onPreviewHost.headers.get('location'), `//${DOMAIN}:${app.port}${base}guides/setup`);
  t.is((await fetchWithHost('nobody-000000.preview.test')(`${app.url}/`)).status, 404);
});
