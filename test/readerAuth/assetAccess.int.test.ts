import test from 'ava';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { READER_ACCESS_SITE } from './readerAccessSite.js';
import { PASSWORD, postSignIn, sessionCookie, startReaderSite } from './readerSite.js';

const NOW_S = Date.parse('2026-05-01T10:00:00.000Z') / 1000;

/** The access fixture with images and a download, each used by pages of a different audience. */
const SITE_WITH_ASSETS: Record<string, string> = {
  ...READER_ACCESS_SITE,
  'open/hello.mdx': '---\ntitle: Hello\n---\n\nAn open page about kettles.\n\n![kettle](/img/kettle.png)\n',
  'team/notes.mdx':
    '---\ntitle: Team notes\n---\n\nInternal quokka notes.\n\n![quokka](/img/quokka.png)\n\n[The plan](/files/plan.pdf)\n\n![kettle](/img/kettle.png)\n',
  'oncall/runbook.mdx':
    '---\ntitle: Pager runbook\ngroups: ["oncall"]\n---\n\nRestart the zebrafish.\n\n![fish](/img/zebrafish.png)\n\n![shared](/img/shared.png)\n',
  'partner/guide.mdx': '---\ntitle: Partner guide\ngroups: ["partners"]\n---\n\nThe pangolin programme.\n\n![shared](/img/shared.png)\n',
  'img/kettle.png': 'kettle-bytes',
  'img/quokka.png': 'quokka-bytes',
  'img/zebrafish.png': 'zebrafish-bytes',
  'img/shared.png': 'shared-bytes',
  'files/plan.pdf': 'plan-bytes',
};

async function jwtSiteWithAssets(t: Parameters<typeof startReaderSite>[0]) {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const { app } = await startReaderSite(
    t,
    { mode: 'jwt', loginUrl: 'https://login.corp.example/docs', publicKeyPem: await exportSPKI(publicKey), algorithms: ['RS256'] },
    undefined,
    SITE_WITH_ASSETS,
  );
  const readerOf = async (groups: string[]) => {
    const token = await new SignJWT({ expiresAt: NOW_S + 3600, groups })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuedAt(NOW_S)
      .sign(privateKey);
    return sessionCookie(await fetch(`${app.url}/_enclave/auth/jwt-callback?token=${token}`, { redirect: 'manual' }));
  };
  return { app, readerOf };
}

const get = (url: string, cookie?: string, extra: Record<string, string> = {}) =>
  fetch(url, { redirect: 'manual', headers: { ...(cookie ? { cookie } : {}), ...extra } });

/** What a 404 says, less what differs per response anyway. */
async function notFoundShape(res: Response) {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (name !== 'date' && name !== 'x-request-id') headers[name] = value;
  });
  return { status: res.status, headers, body: await res.text() };
}

test('an asset used only by restricted pages is gated like them: 404 exactly like a missing file, 200 to readers of any page using it', async (t) => {
  const { app, readerOf } = await jwtSiteWithAssets(t);
  const oncall = await readerOf(['oncall']);
  const partner = await readerOf(['partners']);
  const nobody = await readerOf([]);
  // Used by a public page (and a signed-in one): open to everyone, as before.
  const kettle = await get(`${app.url}/img/kettle.png`);
  t.is(kettle.status, 200);
  t.is(await kettle.text(), 'kettle-bytes');
  // Signed out: each restricted asset answers exactly as a missing one.
  const missing = await notFoundShape(await get(`${app.url}/img/no-such.png`));
  t.is(missing.status, 404);
  for (const asset of ['img/quokka.png', 'files/plan.pdf', 'img/zebrafish.png', 'img/shared.png'])
    t.deepEqual(await notFoundShape(await get(`${app.url}/${asset}`)), missing, `${asset} signed out`);
  // Any signed-in reader: the signed-in page's assets, privately.
  const quokka = await get(`${app.url}/img/quokka.png`, nobody);
  t.is(quokka.status, 200);
  t.is(await quokka.text(), 'quokka-bytes');
  t.is(quokka.headers.get('cache-control'), 'private, no-cache');
  t.regex(quokka.headers.get('vary') ?? '', /Cookie/);
  t.is((await get(`${app.url}/files/plan.pdf`, nobody)).status, 200);
  // Group pages' assets: the wrong group gets a missing file's answer, either group of a shared one gets it.
  const missingSignedIn = await notFoundShape(await get(`${app.url}/img/no-such.png`, partner));
  t.deepEqual(await notFoundShape(await get(`${app.url}/img/zebrafish.png`, partner)), missingSignedIn);
  t.deepEqual(
    await notFoundShape(await get(`${app.url}/img/zebrafish.png`, nobody)),
    await notFoundShape(await get(`${app.url}/img/no-such.png`, nobody)),
  );
  t.is((await get(`${app.url}/img/zebrafish.png`, oncall)).status, 200);
  t.is((await get(`${app.url}/img/shared.png`, oncall)).status, 200);
  t.is((await get(`${app.url}/img/shared.png`, partner)).status, 200);
});

test("If-None-Match reveals nothing of a restricted asset: no 304 for readers who may not load it, even with its own tag or '*'", async (t) => {
  const { app, readerOf } = await jwtSiteWithAssets(t);
  const oncall = await readerOf(['oncall']);
  const partner = await readerOf(['partners']);
  const seen = await get(`${app.url}/img/zebrafish.png`, oncall);
  const etag = seen.headers.get('etag') ?? '';
  t.truthy(etag);
  t.is((await get(`${app.url}/img/zebrafish.png`, oncall, { 'if-none-match': etag })).status, 304, 'its own reader revalidates');
  for (const tag of [etag, '*']) {
    t.is((await get(`${app.url}/img/zebrafish.png`, undefined, { 'if-none-match': tag })).status, 404, `signed out, ${tag}`);
    t.is((await get(`${app.url}/img/zebrafish.png`, partner, { 'if-none-match': tag })).status, 404, `wrong group, ${tag}`);
  }
});

test('a site without access marks: every page needs a signed-in reader, and so do the images only its pages use; the logo stays open for the sign-in page', async (t) => {
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({
      name: 'Closed',
      logo: '/brand/logo.png',
      navigation: { groups: [{ group: 'All', pages: ['index', 'guide'] }] },
    }),
    'index.mdx': '---\ntitle: Home\n---\n\nHello.\n',
    'guide.mdx': '---\ntitle: Guide\n---\n\nSee it.\n\n![diagram](/img/diagram.png)\n',
    'img/diagram.png': 'diagram-bytes',
    'brand/logo.png': 'logo-bytes',
  };
  const { app } = await startReaderSite(t, undefined, undefined, files);
  t.is((await get(`${app.url}/img/diagram.png`)).status, 404);
  t.is((await get(`${app.url}/brand/logo.png`)).status, 200, 'the sign-in page shows the logo');
  const cookie = sessionCookie(await postSignIn(app, PASSWORD));
  t.is((await get(`${app.url}/img/diagram.png`, cookie)).status, 200);
  // Without page marks, no audience files are built: signed out, llms.txt still needs sign-in.
  t.not((await get(`${app.url}/llms.txt`)).status, 200);
});
