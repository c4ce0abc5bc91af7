import test from 'ava';
import { docsPath, resolveLink } from '../../src/render/links/resolveLink.js';
import type { SiteIndex } from '../../src/render/links/SiteIndex.js';

const site: SiteIndex = {
  pages: new Set(['index', 'guides/start', 'guides/deep/page', 'api/index']),
  redirects: new Set(['old']),
  files: new Set(['images/a b.png', 'files/spec.yaml']),
};

test('page links become relative .html hrefs at every depth', (t) => {
  const cases: [string, string, string][] = [
    ['index', '/guides/start', 'guides/start.html'],
    ['guides/start', '/guides/start#x', 'start.html#x'],
    ['guides/start', '/', '../index.html'],
    ['guides/deep/page', '/guides/start', '../start.html'],
    ['guides/deep/page', '../start', '../start.html'],
    ['guides/deep/page', 'page', 'page.html'],
    ['guides/start', 'deep/page.mdx', 'deep/page.html'],
    ['guides/start', '/guides/start/', 'start.html'],
    ['guides/start', '/api', '../api/index.html'],
    ['guides/deep/page', '/old', '../../old.html'],
    ['guides/start', '/images/a%20b.png', '../images/a%20b.png'],
    ['index', '/guides/start?tab=1#y', 'guides/start.html?tab=1#y'],
  ];
  for (const [from, target, expected] of cases) t.is(resolveLink(target, from, site).href, expected, `${from} -> ${target}`);
});

test('external, anchor-only and broken links are classified', (t) => {
  t.is(resolveLink('https://example.com/x', 'index', site).kind, 'external');
  t.is(resolveLink('mailto:a@b.c', 'index', site).kind, 'external');
  t.deepEqual(resolveLink('#top', 'guides/start', site), { href: '#top', kind: 'anchor', page: 'guides/start', hash: 'top' });
  t.deepEqual(resolveLink('/nope', 'guides/start', site), {
    href: '../nope.html',
    kind: 'broken',
    reason: 'no page, redirect or file at /nope',
  });
  t.like(
    resolveLink('deep/gone/', 'guides/start', site),
    { kind: 'broken', reason: 'no page, redirect or file at /guides/deep/gone' },
    'the reason names the resolved path',
  );
  t.like(resolveLink('../../../../etc/passwd', 'guides/start', site), { kind: 'broken', reason: 'points outside the docs folder' });
  t.is(resolveLink('/files/spec.yaml', 'guides/deep/page', site).href, '../../files/spec.yaml');
});

test('resolution is idempotent, so a component-resolved href survives the page-wide link pass', (t) => {
  for (const [from, target] of [
    ['guides/deep/page', '/guides/start#a'],
    ['index', '/api'],
    ['guides/start', '/images/a b.png'],
  ]) {
    const once = resolveLink(target, from, site).href;
    t.is(resolveLink(once, from, site).href, once);
  }
});

test('docsPath resolves against the page folder and keeps a path that leaves the docs folder outside', (t) => {
  const cases: [string, string, string][] = [
    ['/images/a.png', 'guides/start', 'images/a.png'],
    ['./a.png', 'guides/start', 'guides/a.png'],
    ['a.png', 'guides/index', 'guides/a.png'],
    ['../a.png', 'guides/deep/page', 'guides/a.png'],
    ['.', 'guides/start', 'guides'],
    ['..', 'guides/start', ''],
    // A leading `..` used to lose its first dot (`./x`) and pass as inside the folder.
    ['../x', 'index', '../x'],
    ['../../x', 'guides/start', '../x'],
  ];
  for (const [path, from, expected] of cases) t.is(docsPath(path, from), expected, `${from}: ${path}`);
});
