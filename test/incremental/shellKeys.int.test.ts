import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { packSite } from './packSite.js';

const TAB_A = ['a/page-0', 'a/page-1', 'a/page-2', 'a/page-3'];
const TAB_B = ['b/page-0', 'b/page-1', 'b/page-2', 'b/page-3'];

/** A two-tab site (each tab its own sidebar) in a temp folder removed when the test ends. */
async function twoTabSite(t: ExecutionContext): Promise<{ root: string; src: string; cache: string }> {
  const root = await mkdtemp(join(tmpdir(), 'enclave-shell-keys-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const src = join(root, 'src');
  for (const path of [...TAB_A, ...TAB_B]) {
    await mkdir(dirname(join(src, path)), { recursive: true });
    await writeFile(join(src, `${path}.mdx`), `---\ntitle: "Title of ${path}"\n---\nBody of ${path}.\n`);
  }
  const config = {
    name: 'Two tabs',
    theme: 'mint',
    colors: { primary: '#224488' },
    navigation: {
      tabs: [
        { tab: 'Tab A', groups: [{ group: 'A', pages: TAB_A }] },
        { tab: 'Tab B', groups: [{ group: 'B', pages: TAB_B }] },
      ],
    },
  };
  await writeFile(join(src, 'docs.json'), JSON.stringify(config));
  return { root, src, cache: join(root, 'cache') };
}

async function retitle(src: string, path: string, title: string): Promise<void> {
  const file = join(src, `${path}.mdx`);
  await writeFile(file, (await readFile(file, 'utf8')).replace(/^title: "[^"]*"/m, `title: "${title}"`));
}

test('a title change re-assembles only the pages whose navigation shows it; the zip still matches a full export', async (t) => {
  const { root, src, cache } = await twoTabSite(t);
  await packSite(src, join(root, 'v0.zip'), { cache });
  const same = async (name: string, label: string) => {
    await packSite(src, join(root, `${name}-full.zip`));
    const incremental = await readFile(join(root, `${name}.zip`));
    t.true(incremental.equals(await readFile(join(root, `${name}-full.zip`))), `${label}: byte-identical to a full export`);
  };

  // Tab B's sidebar shows the title; tab A's pages show nothing of tab B but its tab (by href).
  await retitle(src, 'b/page-1', 'Renamed in B');
  const inB = await packSite(src, join(root, 'v1.zip'), { previous: join(root, 'v0.zip'), cache });
  t.is(inB.renderedPages, 1, 'the renamed page alone is rendered');
  t.is(inB.copiedPages, TAB_A.length, "tab A's pages are copied unassembled");
  await same('v1', 'a title in tab B');

  // The first page of tab B is the last page of tab A's "next" link: that page shows it too.
  await retitle(src, 'b/page-0', 'First of B, renamed');
  const first = await packSite(src, join(root, 'v2.zip'), { previous: join(root, 'v1.zip'), cache });
  t.is(first.copiedPages, TAB_A.length - 1, "tab A's last page shows the title in its next link");
  await same('v2', "the next link's title");

  // Nothing changed: every page is copied.
  const again = await packSite(src, join(root, 'v3.zip'), { previous: join(root, 'v2.zip'), cache });
  t.is(again.copiedPages, TAB_A.length + TAB_B.length);
  await same('v3', 'nothing changed');
});
