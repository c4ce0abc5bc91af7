import { appendFile, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { renderFixtureDir } from '../renderFixtureDir.js';
import { renderFiles } from '../renderFixture.js';

/** The search index and utility stylesheet an export wrote: name → content. */
async function namedOutputs(out: string): Promise<{ index: [string, string]; utilities: [string, string] }> {
  const assets = await readdir(join(out, '_assets'));
  const pick = async (re: RegExp): Promise<[string, string]> => {
    const name = assets.find((f) => re.test(f));
    if (!name) throw new Error(`no ${re} in ${assets.join(', ')}`);
    return [name.replace(/^[a-z-]+\.|\.\w+$/g, ''), await readFile(join(out, '_assets', name), 'utf8')];
  };
  return { index: await pick(/^search-index\.[0-9a-f]+\.js$/), utilities: await pick(/^utilities\.[0-9a-f]+\.css$/) };
}

test('nav-site: the search index name changes with its content and only then; it is not the stylesheet’s name', async (t) => {
  const first = await namedOutputs((await renderFixtureDir(t, 'nav-site')).out);
  const again = await namedOutputs((await renderFixtureDir(t, 'nav-site')).out);
  t.deepEqual(again.index, first.index, 'same inputs: same name, same content');
  t.not(first.index[0], first.utilities[0], 'two different files never share a hash');
  const edited = await namedOutputs(
    (await renderFixtureDir(t, 'nav-site', {}, (src) => appendFile(join(src, 'en/install.mdx'), '\n\nQuokka words.\n'))).out,
  );
  t.true(edited.index[1].includes('Quokka words'));
  t.not(edited.index[0], first.index[0], 'new content: new name');
});

test('a setting that changes what the index holds (shipping a page with an unparsable expression) changes its name', async (t) => {
  const files = {
    'docs.json': JSON.stringify({ name: 'X', navigation: { pages: ['index', 'broken'] } }),
    'index.mdx': '# Home\n',
    'broken.mdx': '# Broken\n\nPlatypus text {1 +}\n',
  };
  const failed = await namedOutputs((await renderFiles(t, files)).out);
  const shipped = await namedOutputs((await renderFiles(t, files, { shipWarnings: true })).out);
  t.false(failed.index[1].includes('Platypus'));
  t.true(shipped.index[1].includes('Platypus'));
  t.not(shipped.index[0], failed.index[0]);
});
