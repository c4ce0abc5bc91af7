import test from 'ava';
import { loadSiteConfig } from '../../src/render/config/loadSiteConfig.js';
import type { NavDivision, NavGroup } from '../../src/render/config/SiteConfig.js';
import { writeDocs } from './renderFixture.js';

const noWarn = () => {};

test('docs.json: tabs, nested groups, versions, anchors, global links, colors and logo are normalised', async (t) => {
  const src = await writeDocs(t, {
    'docs.json': JSON.stringify({
      name: 'Acme',
      colors: { primary: '#123456' },
      logo: { light: '/l.svg', dark: '/d.svg', href: 'https://acme.test' },
      favicon: '/f.svg',
      icons: { library: 'lucide' },
      appearance: { default: 'dark' },
      navbar: { links: [{ label: 'Blog', href: 'https://blog.acme.test' }], primary: { type: 'button', label: 'Go', href: '/start' } },
      navigation: {
        global: { anchors: [{ anchor: 'Community', href: 'https://c.acme.test', icon: 'slack' }] },
        tabs: [
          { tab: 'Guides', groups: [{ group: 'Start', pages: ['index', { group: 'Deep', expanded: true, pages: ['deep/a'] }] }] },
          {
            tab: 'API',
            versions: [
              { version: 'v2', default: true, pages: [{ group: 'Ref', pages: ['v2/ref'] }] },
              { version: 'v1', pages: ['v1/ref'] },
            ],
          },
          { tab: 'Site', href: 'https://acme.test' },
        ],
      },
      redirects: [{ source: '/old', destination: '/index' }],
      footer: { socials: { github: 'https://github.com/acme' } },
    }),
  });
  const c = await loadSiteConfig(src, noWarn);
  t.is(c.configFile, 'docs.json');
  t.is(c.name, 'Acme');
  t.is(c.colors.primary, '#123456');
  t.deepEqual(c.logo, { light: '/l.svg', dark: '/d.svg', href: 'https://acme.test' });
  t.is(c.iconLibrary, 'lucide');
  t.is(c.appearance.default, 'dark');
  t.deepEqual(c.navbarPrimary, { label: 'Go', href: '/start' });
  t.deepEqual(
    c.globalLinks.map((l) => l.label),
    ['Community'],
  );
  t.deepEqual(
    c.footerSocials.map((s) => s.label),
    ['github'],
  );
  t.deepEqual(c.redirects, [{ source: '/old', destination: '/index', permanent: true }]);
  const [guides, api, site] = c.navigation.divisions;
  t.is(guides.kind, 'tab');
  const start = guides.items[0] as NavGroup;
  t.is(start.title, 'Start');
  t.deepEqual(start.items[0], { kind: 'page', path: 'index' });
  const deep = start.items[1] as NavGroup;
  t.is(deep.kind, 'group');
  t.true(deep.expanded);
  t.deepEqual(
    api.divisions.map((d: NavDivision) => [d.kind, d.label, d.isDefault]),
    [
      ['version', 'v2', true],
      ['version', 'v1', false],
    ],
  );
  t.is(site.href, 'https://acme.test');
});

test('docs.json: $ref includes are resolved relative to the including file, and a cycle is an error', async (t) => {
  const src = await writeDocs(t, {
    'docs.json': JSON.stringify({ name: 'R', navigation: { $ref: './nav/main.json' } }),
    'nav/main.json': JSON.stringify({ groups: [{ $ref: 'group.json' }] }),
    'nav/group.json': JSON.stringify({ group: 'Included', pages: ['a', 'b'] }),
  });
  const c = await loadSiteConfig(src, noWarn);
  const g = c.navigation.items[0] as NavGroup;
  t.is(g.title, 'Included');
  t.deepEqual(
    g.items.map((i) => (i.kind === 'page' ? i.path : '')),
    ['a', 'b'],
  );

  const cyclic = await writeDocs(t, {
    'docs.json': JSON.stringify({ name: 'C', navigation: { $ref: 'a.json' } }),
    'a.json': JSON.stringify({ $ref: 'b.json' }),
    'b.json': JSON.stringify({ $ref: 'a.json' }),
  });
  await t.throwsAsync(loadSiteConfig(cyclic, noWarn), { message: /\$ref cycle/ });
  const escaping = await writeDocs(t, { 'docs.json': JSON.stringify({ navigation: { $ref: '../../etc/passwd' } }) });
  await t.throwsAsync(loadSiteConfig(escaping, noWarn), { message: /outside the docs folder/ });
});

test('docs.json that is not valid JSON names the file', async (t) => {
  const src = await writeDocs(t, { 'docs.json': '{ "name": ' });
  await t.throwsAsync(loadSiteConfig(src, noWarn), { message: /docs\.json is not valid JSON/ });
});

test('mint.json: groups go to the tab whose url prefixes their first page; external anchors become links', async (t) => {
  const src = await writeDocs(t, {
    'mint.json': JSON.stringify({
      name: 'Legacy',
      logo: '/logo.png',
      colors: { primary: '#ff0000' },
      primaryTab: { name: 'Home' },
      tabs: [
        { name: 'API', url: 'api' },
        { name: 'Blog', url: 'https://blog.test' },
      ],
      anchors: [{ name: 'Forum', url: 'https://forum.test', icon: 'comments' }],
      topbarLinks: [{ name: 'Status', url: 'https://status.test' }],
      topbarCtaButton: { type: 'github', url: 'https://github.com/x' },
      navigation: [
        { group: 'Intro', pages: ['welcome'] },
        { group: 'Endpoints', pages: ['api/list', 'api/get'] },
      ],
      footerSocials: { x: 'https://x.com/legacy' },
      modeToggle: { default: 'dark' },
    }),
  });
  const c = await loadSiteConfig(src, noWarn);
  t.is(c.configFile, 'mint.json');
  t.deepEqual({ ...c.logo }, { light: '/logo.png', dark: '/logo.png' });
  t.deepEqual(
    c.navigation.divisions.map((d) => [d.label, d.href ?? null, d.items.length]),
    [
      ['Home', null, 1],
      ['API', null, 1],
      ['Blog', 'https://blog.test', 0],
    ],
  );
  t.deepEqual(c.globalLinks, [{ label: 'Forum', href: 'https://forum.test', icon: 'comments' }]);
  t.deepEqual(
    c.navbarLinks.map((l) => l.label),
    ['Status'],
  );
  t.deepEqual(c.navbarPrimary, { label: 'GitHub', href: 'https://github.com/x' });
  t.is(c.appearance.default, 'dark');
});

test('a folder without docs.json or mint.json still loads with defaults and a warning', async (t) => {
  const src = await writeDocs(t, { 'a.mdx': '# A' });
  const warnings: string[] = [];
  const c = await loadSiteConfig(src, (m) => warnings.push(m));
  t.is(c.name, 'Documentation');
  t.regex(warnings.join(), /no docs\.json or mint\.json/);
});
