import test from 'ava';
import { AssetAccess } from '../../src/render/access/AssetAccess.js';

const FILES = new Set(['img/a.png', 'img/b c.png', 'files/report.pdf', 'img/open.png', 'img/wide.png']);

test('an asset is as open as the most open page that references it; unreferenced and unknown files are not recorded', (t) => {
  const assets = new AssetAccess(FILES);
  assets.addPage('team/notes.html', '<img src="../img/a.png"><a href="/files/report.pdf?dl=1#x">r</a>', 'signed-in');
  assets.addPage('oncall/runbook.html', '<img src="../img/b%20c.png" srcset="../img/wide.png 2x, ../img/a.png 1x">', ['oncall']);
  assets.addPage('partner/guide.html', '<img src="/img/b%20c.png"><img src="https://cdn.example/img/open.png">', ['partners']);
  assets.addPage('open/hello.html', '<img src="../img/open.png"><a href="../img/wide.png">', 'public');
  assets.addPage('index.html', '<img src="img/nowhere.png"><a href="#top">top</a><a href="mailto:x@example.com">m</a>', 'public');
  t.deepEqual(assets.restricted(), {
    'files/report.pdf': 'signed-in',
    // Used by a signed-in page and a group page: any signed-in reader.
    'img/a.png': 'signed-in',
    // Used by pages of two groups: readers of either.
    'img/b c.png': ['oncall', 'partners'],
  });
});

test('references are matched as a browser resolves them, whatever shape their last segment has', (t) => {
  const assets = new AssetAccess(new Set(['img/a.png', 'img/b c.png', 'x/%41.png', 'dir/é.svg', 'img/q.png']));
  const refs = [
    'img%2Fa.png', // an encoded slash: decoded, it names img/a.png
    '..\\img\\b%20c.png', // backslashes are slashes to a URL parser
    '../x/%2541.png', // a literal % in the file's name
    '/dir/%C3%A9.svg',
    '../img/q.png?v=2#top',
    '../img/nothing.png',
    '../img/a.png/..', // a dot segment last: a folder, not the file
  ];
  assets.addPage('team/notes.html', refs.map((r) => `<a href="${r}">x</a>`).join(''), 'signed-in');
  t.deepEqual(Object.keys(assets.restricted()), ['dir/é.svg', 'img/b c.png', 'img/q.png', 'x/%41.png']);
  assets.addPage('index.html', '<img src="img%2Fa.png">', ['oncall']);
  t.deepEqual(assets.restricted()['img/a.png'], ['oncall']);
});

test('the name shortcut only skips refs that can name no file: escapes and backslashes still match', (t) => {
  const assets = new AssetAccess(FILES);
  // `%2E` decodes to a dot and the URL parser reads backslashes as slashes: both still name a file.
  assets.addPage('guide/one.html', '<a href="../img/a%2Epng">a</a><img src="..\\img\\open.png"><a href="../guide/two.html">two</a>', [
    'crew',
  ]);
  t.deepEqual(assets.addPage('guide/two.html', '<a href="../guide/one.html#top">one</a><a href="../files/">f</a>', ['crew']), []);
  t.deepEqual(assets.restricted(), { 'img/a.png': ['crew'], 'img/open.png': ['crew'] });
});
