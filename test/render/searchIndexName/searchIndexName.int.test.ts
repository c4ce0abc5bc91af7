import { appendFile, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { exportedPages, renderFixtureDir } from '../renderFixtureDir.js';
import { renderFiles } from '../renderFixture.js';

/** The search index and utility stylesheet an export wrote, and every other `_assets/` name. */
async function siteWideAssets(out: string): Promise<{ index: string; utilities: string; names: string[] }> {
  return {
    index: await readFile(join(out, '_assets/search-index.js'), 'utf8'),
    utilities: await readFile(join(out, '_assets/utilities.css'), 'utf8'),
    names: (await readdir(join(out, '_assets'))).filter((n) => /^(?:search-index|utilities)\./.test(n)).sort(),
  };
}

// Issue 32: the two files every page links follow every page's content. Named by that content,
// one page's edit changed all pages' <head>, so an incremental export rewrote the whole site.
test('nav-site: one page’s new text and class change that page and the two site-wide files, never another page', async (t) => {
  const before = await renderFixtureDir(t, 'nav-site');
  const after = await renderFixtureDir(t, 'nav-site', {}, (src) =>
    appendFile(join(src, 'en/install.mdx'), '\n\n<div className="tracking-widest">Quokka words.</div>\n'),
  );
  const first = await siteWideAssets(before.out);
  const edited = await siteWideAssets(after.out);
  t.deepEqual(first.names, ['search-index.js', 'utilities.css'], 'one name each, no content hash');
  t.deepEqual(edited.names, first.names);
  t.false(first.index.includes('Quokka words'));
  t.true(edited.index.includes('Quokka words'));
  t.false(first.utilities.includes('tracking-widest'));
  t.true(edited.utilities.includes('tracking-widest'));

  const pagesBefore = new Map(await exportedPages(before.out));
  const pagesAfter = new Map(await exportedPages(after.out));
  t.deepEqual([...pagesAfter.keys()], [...pagesBefore.keys()]);
  const changed = [...pagesAfter].filter(([path, html]) => pagesBefore.get(path) !== html).map(([path]) => path);
  t.deepEqual(changed, ['en/install.html']);
  t.true(pagesBefore.size > 5, 'the fixture has other pages to compare');
});

test('a setting that changes what the index holds changes its content under the same name', async (t) => {
  const files = {
    'docs.json': JSON.stringify({ name: 'X', navigation: { pages: ['index', 'broken'] } }),
    'index.mdx': '# Home\n',
    'broken.mdx': '# Broken\n\nPlatypus text {1 +}\n',
  };
  const failed = await siteWideAssets((await renderFiles(t, files)).out);
  const shipped = await siteWideAssets((await renderFiles(t, files, { shipWarnings: true })).out);
  t.false(failed.index.includes('Platypus'));
  t.true(shipped.index.includes('Platypus'));
  t.deepEqual(shipped.names, failed.names);
});
