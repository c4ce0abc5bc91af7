import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { accessMapSchema, ACCESS_MAP_PATH, audienceFolder } from '../../src/platform/access/PageAccess.js';
import { mayAudienceSee } from '../../src/platform/access/mayAudienceSee.js';
import { renderFiles } from '../render/renderFixture.js';
import { READER_ACCESS_SITE } from './readerAccessSite.js';

const read = (out: string, rel: string) => readFile(join(out, rel), 'utf8');

test('the export writes a per-page access map from frontmatter and public nav groups', async (t) => {
  const { out, result } = await renderFiles(t, READER_ACCESS_SITE);
  const map = accessMapSchema.parse(JSON.parse(await read(out, ACCESS_MAP_PATH)));
  t.deepEqual(map.pages, {
    index: 'public',
    'open/hello': 'public',
    'team/notes': 'signed-in',
    'oncall/runbook': ['oncall'],
    'partner/guide': ['oncall', 'partners'],
    'api-ref': 'public',
  });
  t.deepEqual(
    map.audiences.map((a) => a.groups),
    [null, [], ['oncall'], ['oncall', 'partners']],
  );
  t.deepEqual(result.report.access, {
    publicPages: 3,
    signedInPages: 1,
    groupPages: 2,
    restrictedPages: 3,
    audiences: ['public', 'signed-in', 'g0', 'g1'],
  });
  t.true(mayAudienceSee(map, { groups: ['partners'] }, 'partner/guide'));
  t.false(mayAudienceSee(map, { groups: ['partners'] }, 'oncall/runbook'));
  t.false(mayAudienceSee(map, null, 'team/notes'));
});

test("each audience's search index and llms files hold only the pages it may open", async (t) => {
  const { out } = await renderFiles(t, READER_ACCESS_SITE);
  const publicIndex = await read(out, `${audienceFolder('public')}/search-index.js`);
  t.true(publicIndex.includes('kettles'));
  for (const secret of ['quokka', 'zebrafish', 'pangolin', 'Pager runbook']) t.false(publicIndex.includes(secret), secret);
  const publicFull = await read(out, `${audienceFolder('public')}/llms-full.txt`);
  t.true(publicFull.includes('Tuesdays'));
  t.false(publicFull.includes('quokka'));
  const publicLlms = await read(out, `${audienceFolder('public')}/llms.txt`);
  t.true(publicLlms.includes('open/hello.md'));
  t.false(publicLlms.includes('team/notes'));
  const signedIn = await read(out, `${audienceFolder('signed-in')}/search-index.js`);
  t.true(signedIn.includes('quokka'));
  t.false(signedIn.includes('zebrafish'));
  const partners = await read(out, `${audienceFolder('g1')}/search-index.js`);
  t.true(partners.includes('zebrafish') && partners.includes('pangolin'));
  // The site-wide files stay complete: the default export is whole.
  t.true((await read(out, 'llms-full.txt')).includes('zebrafish'));
});

test('x-mint.groups on an operation limits its generated page', async (t) => {
  const spec = {
    openapi: '3.0.0',
    info: { title: 'T', version: '1' },
    paths: {
      '/secret': { get: { summary: 'Secret thing', 'x-mint': { groups: ['admins'] }, responses: { 200: { description: 'ok' } } } },
      '/open': { get: { summary: 'Open thing', responses: { 200: { description: 'ok' } } } },
    },
  };
  const { out } = await renderFiles(t, {
    'docs.json': JSON.stringify({
      name: 'Ops',
      colors: { primary: '#0D9373' },
      navigation: { groups: [{ group: 'API', public: true, openapi: 'openapi.json' }] },
    }),
    'openapi.json': JSON.stringify(spec),
  });
  const map = accessMapSchema.parse(JSON.parse(await read(out, ACCESS_MAP_PATH)));
  const entries = Object.entries(map.pages);
  t.deepEqual(entries.find(([p]) => p.includes('secret'))?.[1], ['admins']);
  t.is(entries.find(([p]) => p.includes('open'))?.[1], 'public');
});

test('a site with no marks gets no access map: every page needs a signed-in reader', async (t) => {
  const { out, result } = await renderFiles(t, {
    'docs.json': JSON.stringify({ name: 'Plain', colors: { primary: '#0D9373' }, navigation: { pages: ['index'] } }),
    'index.mdx': '# Home\n',
  });
  await t.throwsAsync(read(out, ACCESS_MAP_PATH));
  t.is(result.report.access, undefined);
  t.false(mayAudienceSee(null, null, 'index'));
  t.true(mayAudienceSee(null, { groups: [] }, 'index'));
});

test('an export for the public audience leaves restricted pages out, navigation included', async (t) => {
  const { out, result } = await renderFiles(t, READER_ACCESS_SITE, { audience: null });
  t.is(result.pageCount, 3);
  const home = await read(out, 'index.html');
  t.true(home.includes('Hello'));
  for (const secret of ['Team notes', 'Pager runbook', 'Partner guide']) t.false(home.includes(secret), secret);
  await t.throwsAsync(read(out, 'team/notes.html'));
  t.false((await read(out, 'llms-full.txt')).includes('quokka'));
  const indexFile = (await readdir(join(out, '_assets'))).find((f) => f.startsWith('search-index.'));
  const index = await read(out, `_assets/${indexFile}`);
  t.true(index.includes('kettles'));
  t.false(index.includes('quokka'));
});
