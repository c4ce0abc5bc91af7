import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { languageName } from '../../src/render/config/languageName.js';
import { renderDocs, renderFiles } from './renderFixture.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'nav-site');
const read = (out: string, rel: string) => readFile(join(out, rel), 'utf8');
const part = (html: string, re: RegExp) => re.exec(html)?.[0] ?? '';
const tabBar = (html: string) => part(html, /<nav class="enclave-tabs"[\s\S]*?<\/nav>/);
const sidebar = (html: string) => part(html, /<nav id="enclave-sidebar"[\s\S]*?<\/nav>\n<main/);
const labels = (html: string) => [...html.matchAll(/>([^<>]+)</g)].map((m) => m[1]);
const breadcrumbs = (html: string) => labels(part(html, /<nav class="enclave-breadcrumbs"[\s\S]*?<\/nav>/));
const pagination = (html: string) =>
  [...part(html, /<nav class="enclave-pagination"[\s\S]*?<\/nav>/).matchAll(/rel="(prev|next)" href="([^"]+)"/g)].map(
    (m) => `${m[1]} ${m[2]}`,
  );

/** Renders the nav-site fixture from a temp copy (the render writes next to its source). */
async function renderNavSite(t: ExecutionContext) {
  const root = await mkdtemp(join(tmpdir(), 'enclave-nav-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await cp(FIXTURE, join(root, 'src'), { recursive: true });
  return renderDocs(join(root, 'src'));
}

test('tabs under a language make a tab bar; a tab menu lists its items and each item has its own sidebar, breadcrumb and prev/next', async (t) => {
  const { out } = await renderNavSite(t);
  const home = await read(out, 'en/index.html');
  t.deepEqual(labels(tabBar(home)), ['Guides', 'API', 'Help', 'FAQ', 'Contact']);
  t.regex(tabBar(home), /<a href="\.\.\/en\/index\.html" aria-current="true">Guides<\/a>/);
  t.regex(tabBar(home), /<a href="\.\.\/api-reference\/users\/list-users\.html">API<\/a>/, 'the API tab leads to its first generated page');

  const faq = await read(out, 'en/help/faq.html');
  t.regex(tabBar(faq), /<summary aria-current="true">Help<\/summary>/);
  t.regex(tabBar(faq), /<a href="\.\.\/\.\.\/en\/help\/faq\.html" aria-current="true">FAQ<\/a>/);
  t.regex(sidebar(faq), /Questions[\s\S]*aria-current="page">FAQ</);
  t.notRegex(sidebar(faq), /Reach us|Welcome/, "only the menu item's own groups");
  t.deepEqual(breadcrumbs(faq), ['Help', 'FAQ', 'Questions']);
  t.deepEqual(pagination(faq), ['prev ../../api-reference/get-item.html', 'next ../../en/help/contact.html']);

  const contact = await read(out, 'en/help/contact.html');
  t.regex(
    sidebar(contact),
    /<p class="enclave-group-title" id="[^"]+"><svg [^>]*class="enclave-nav-icon"[\s\S]*?<\/svg>Reach us<\/p>[\s\S]*aria-current="page">Contact</,
    "a group's icon before its name",
  );
  t.notRegex(sidebar(contact), /Hidden page/, 'a hidden page is published but not in the sidebar');
  t.deepEqual(pagination(contact), ['prev ../../en/help/faq.html'], 'nor in prev/next');
  t.notRegex(contact, /enclave-page-header|enclave-breadcrumbs/, 'mode: custom has no title block or breadcrumb of ours');
  t.true((await read(out, 'en/help/hidden.html')).includes('Not in the sidebar.'));
});

test('languages: switcher by language name, <html lang>, breadcrumb without the code, prev/next never cross languages', async (t) => {
  const { out } = await renderNavSite(t);
  const fr = await read(out, 'fr/index.html');
  t.regex(fr, /<html lang="fr"/);
  const switcher =
    /<summary><span class="enclave-visually-hidden">language: <\/span>Français<\/summary><ul><li><a href="\.\.\/en\/index\.html">English<\/a><\/li><li><a href="\.\.\/fr\/index\.html" aria-current="true">Français<\/a>/;
  // In the top bar, as on the hosted site; the sidebar's copy is for the phone-width menu.
  t.regex(
    part(fr, /<div class="enclave-topbar">[\s\S]*?<\/div>/),
    new RegExp(`<details class="enclave-switcher enclave-language-switcher">${switcher.source}`),
  );
  t.regex(sidebar(fr), new RegExp(`<details class="enclave-switcher enclave-switcher-mobile">${switcher.source}`));
  t.deepEqual(breadcrumbs(fr), ['Guides', 'Début']);
  t.deepEqual(labels(tabBar(fr)), ['Guides', 'API'], 'a tab whose every page was lost has nothing to link to');
  t.deepEqual(pagination(fr), ['next ../api-reference/lister-les-utilisateurs.html']);
  const en = await read(out, 'en/index.html');
  t.regex(en, /<html lang="en"/);
  t.false(pagination(en).some((p) => p.includes('fr/')));
  const lastEn = await read(out, 'en/help/contact.html');
  t.false(
    pagination(lastEn).some((p) => p.includes('fr/')),
    'the last English page does not lead into French',
  );
});

test('a group with a root page is one row named after the group, opening to its pages; page icons come from frontmatter', async (t) => {
  const { out } = await renderNavSite(t);
  const nodes = sidebar(await read(out, 'en/concepts/nodes.html'));
  t.regex(
    nodes,
    /<details data-gid="\d+" open class="enclave-root-group"><summary><a href="\.\.\/\.\.\/en\/concepts\.html">Concepts<\/a><\/summary><ul><li><a href="\.\.\/\.\.\/en\/concepts\/nodes\.html" aria-current="page">Nodes<\/a>/,
  );
  t.notRegex(nodes, /Concepts overview page/, 'the group name, not the root page title');
  const overview = sidebar(await read(out, 'en/concepts.html'));
  t.regex(
    overview,
    /<details data-gid="\d+" open class="enclave-root-group"><summary><a href="\.\.\/en\/concepts\.html" aria-current="page">Concepts<\/a>/,
  );
  t.regex(nodes, /<a href="\.\.\/\.\.\/en\/index\.html"><svg [^>]*class="enclave-nav-icon"[^>]*>[\s\S]*?<\/svg>Welcome<\/a>/);
  t.regex(nodes, /<a href="\.\.\/\.\.\/en\/concepts\/edges\.html">Edges<\/a>/, 'no icon without one in frontmatter');
});

test('nav-level OpenAPI entries become pages (inherited from the tab, per language); a remote spec loads from its local mirror or is reported missing', async (t) => {
  const { out, result } = await renderNavSite(t);
  const list = await read(out, 'api-reference/users/list-users.html');
  t.regex(list, /List users/);
  t.regex(sidebar(list), /data-method="GET">GET<\/span>List users[\s\S]*data-method="POST">POST<\/span>Create user[\s\S]*Get item/);
  t.regex(await read(out, 'api-reference/get-item.html'), /\/items\/\{id\}/);
  // Layout: method + URL bar, then the body, then examples in their own column; Mintlify's anchors.
  t.regex(
    list,
    /<div class="enclave-api"[^>]*><div class="enclave-api-endpoint"><span class="enclave-api-method enclave-api-method-get">GET<\/span><span class="enclave-api-server">http:\/\/127\.0\.0\.1:8080\/v1<\/span><span class="enclave-api-path">\/users<\/span><\/div><div class="enclave-api-body">[\s\S]*<\/div><div class="enclave-api-examples"><details class="enclave-try" data-enclave-try="" data-method="GET" data-path="\/users"[\s\S]*?<\/details><aside class="enclave-example enclave-request-example"/,
  );
  t.regex(list, /<div class="enclave-field" id="param-limit">[\s\S]*?<p>Most users to return, <code>1<\/code> to <code>100<\/code>\.<\/p>/);
  t.regex(
    list,
    /<h3 id="response-200"><span class="enclave-api-status enclave-api-status-s2">200<\/span> The <code>users<\/code> page/,
    'inline code in a response heading, no backticks',
  );
  t.regex(list, /id="response-id"/);
  const create = await read(out, 'api-reference/users/create-user.html');
  t.regex(create, /<div class="enclave-field" id="body-name">[\s\S]*?<p>Display <strong>name<\/strong>\.<\/p>/);
  t.regex(
    create,
    /<div class="enclave-field" id="body-age"><div class="enclave-field-head"><code class="enclave-field-name">age<\/code><span class="enclave-field-tag enclave-field-type">integer \| string<\/span><\/div><\/div>/,
    'oneOf of primitives: a type, no empty expanders',
  );
  const fr = await read(out, 'api-reference/lister-les-utilisateurs.html');
  t.regex(fr, /Lister les utilisateurs/, "the French tab's spec, from openapi/<host>/<path>, not the English one");
  t.regex(fr, /<html lang="fr"/);

  t.deepEqual(result.report.missingInputs, [
    {
      input: 'https://api.example.com/specs/gone.json',
      reason: 'remote OpenAPI spec: not fetched offline, and no local copy in the source (same file name, or openapi/<host>/<path>)',
      pages: ['GET /gone', 'DELETE /gone'],
    },
  ]);
  t.deepEqual(result.report.pages, { expected: 15, rendered: 13, missing: 2, failed: [] });
  t.is(result.expected, 15);
  t.is(result.missingPages, 2);
  const written = JSON.parse(await read(out, '_enclave/report.json'));
  t.deepEqual(written.pages, result.report.pages);
});

test('a remote spec also loads from a file of the same name; nav entries naming missing files or specs count as declared but missing', async (t) => {
  const spec = JSON.stringify({
    openapi: '3.0.0',
    info: { title: 'x', version: '1' },
    paths: { '/ping': { get: { summary: 'Ping', responses: { 200: { description: 'ok' } } } } },
  });
  const { out, result } = await renderFiles(t, {
    'docs.json': JSON.stringify({
      name: 'R',
      navigation: {
        groups: [
          { group: 'API', openapi: 'https://example.org/v2/reference.json', pages: ['GET /ping'] },
          { group: 'Docs', pages: ['index', 'not-written-yet'] },
          { group: 'Whole remote spec', openapi: 'https://example.org/elsewhere/all.yaml' },
        ],
      },
    }),
    'index.mdx': '# Home\n',
    'specs/reference.json': spec,
  });
  t.regex(await read(out, 'api-reference/ping.html'), /Ping/);
  t.deepEqual(
    result.report.missingInputs.map((m) => [m.input, m.pages]),
    [
      ['not-written-yet.mdx', ['not-written-yet']],
      ['https://example.org/elsewhere/all.yaml', ['all operations of https://example.org/elsewhere/all.yaml']],
    ],
    'a whole-spec group lost with its spec counts as one entry (its size is unknown)',
  );
  t.is(result.report.pages.expected, result.report.pages.rendered + 2);
});

/** Every container kind docs.json nests tabs under, with the label key it uses. */
const CONTAINERS = [
  ['languages', 'language', 'en', 'de'],
  ['versions', 'version', 'v2', 'v1'],
  ['products', 'product', 'Cloud', 'Edge'],
  ['dropdowns', 'dropdown', 'Tools', 'Extras'],
  ['anchors', 'anchor', 'Docs', 'Blog'],
] as const;

for (const [key, labelKey, first, second] of CONTAINERS) {
  test(`tabs nested under ${key} make a tab bar for each ${labelKey}`, async (t) => {
    const section = (label: string, dir: string) => ({
      [labelKey]: label,
      tabs: [
        { tab: 'Guide', pages: [`${dir}/guide`] },
        { tab: 'Reference', groups: [{ group: 'Ref', pages: [`${dir}/ref`] }] },
      ],
    });
    const page = (title: string) => `---\ntitle: ${title}\n---\n\n${title} text.\n`;
    const { out } = await renderFiles(t, {
      'docs.json': JSON.stringify({ name: 'N', navigation: { [key]: [section(first, 'a'), section(second, 'b')] } }),
      'a/guide.mdx': page('A guide'),
      'a/ref.mdx': page('A ref'),
      'b/guide.mdx': page('B guide'),
      'b/ref.mdx': page('B ref'),
    });
    const bRef = await read(out, 'b/ref.html');
    t.deepEqual(labels(tabBar(bRef)), ['Guide', 'Reference']);
    t.regex(
      tabBar(bRef),
      /<a href="\.\.\/b\/guide\.html">Guide<\/a><\/li><li><a href="\.\.\/b\/ref\.html" aria-current="true">Reference<\/a>/,
    );
    t.regex(
      tabBar(await read(out, 'a/guide.html')),
      /<a href="\.\.\/a\/guide\.html" aria-current="true">Guide<\/a><\/li><li><a href="\.\.\/a\/ref\.html">Reference/,
    );
    const scoped = key === 'languages' || key === 'versions' || key === 'products';
    const aRef = await read(out, 'a/ref.html');
    t.is(
      pagination(aRef).includes('next ../b/guide.html'),
      !scoped,
      scoped ? 'prev/next stay inside the switcher choice' : 'prev/next run on across sections',
    );
    if (scoped) t.false(breadcrumbs(aRef).includes(first), 'the switcher choice is not a breadcrumb');
  });
}

test('mint.json: topAnchor names the default section beside the anchors, in the tab bar', async (t) => {
  const { out } = await renderFiles(t, {
    'mint.json': JSON.stringify({
      name: 'Legacy',
      topAnchor: { name: 'Handbook', icon: 'book' },
      anchors: [{ name: 'API', url: 'api' }],
      navigation: [
        { group: 'Intro', pages: ['index'] },
        { group: 'Endpoints', pages: ['api/list'] },
      ],
    }),
    'index.mdx': '---\ntitle: Home\n---\n\nHome.\n',
    'api/list.mdx': '---\ntitle: List\n---\n\nList.\n',
  });
  t.deepEqual(labels(tabBar(await read(out, 'index.html'))), ['Handbook', 'API']);
});

test('language codes become the names readers know them by; docs.json aliases too; unknown codes stay', (t) => {
  t.deepEqual(['en', 'fr', 'de', 'zh', 'cn', 'jp', 'pt-BR', 'es', 'xx-unknown'].map(languageName), [
    'English',
    'Français',
    'Deutsch',
    '中文',
    '简体中文',
    '日本語',
    'Português (Brasil)',
    'Español',
    'xx-unknown',
  ]);
});

test('tabs, tab menus, their items and anchors show their icons, resolved like sidebar page icons', async (t) => {
  const { out } = await renderFiles(t, {
    'docs.json': JSON.stringify({
      name: 'Icons',
      navigation: {
        global: { anchors: [{ anchor: 'Status', icon: 'signal', href: 'https://status.example.com' }] },
        tabs: [
          { tab: 'Guides', icon: 'book', pages: ['index'] },
          {
            tab: 'API',
            icon: 'code',
            menu: [
              { item: 'REST', icon: 'server', pages: ['rest'] },
              { item: 'Events', icon: 'no-such-icon-anywhere', pages: ['events'] },
            ],
          },
          { tab: 'Plain', pages: ['plain'] },
        ],
      },
    }),
    'index.mdx': '---\ntitle: Home\n---\n\nHome.\n',
    'rest.mdx': '---\ntitle: Rest\n---\n\nRest.\n',
    'events.mdx': '---\ntitle: Events\n---\n\nEvents.\n',
    'plain.mdx': '---\ntitle: Plain\n---\n\nPlain.\n',
  });
  const home = await read(out, 'index.html');
  const bar = tabBar(home);
  const icon = '<svg [^>]*class="enclave-nav-icon"[^>]*>[\\s\\S]*?<\\/svg>';
  t.regex(bar, new RegExp(`<a href="index\\.html" aria-current="true">${icon}Guides</a>`));
  t.regex(bar, new RegExp(`<summary>${icon}API</summary>`));
  t.regex(bar, new RegExp(`<a href="rest\\.html">${icon}REST</a>`));
  t.regex(bar, /<a href="events\.html">Events<\/a>/, 'an unknown icon name shows none');
  t.regex(bar, /<a href="plain\.html">Plain<\/a>/, 'no icon without one');
  t.regex(sidebar(home), new RegExp(`<a href="https://status\\.example\\.com">${icon}Status</a>`));
});

test('anchors in the navigation show their icons in the sidebar', async (t) => {
  const { out } = await renderFiles(t, {
    'docs.json': JSON.stringify({
      name: 'Anchors',
      navigation: {
        anchors: [
          { anchor: 'Handbook', icon: 'book', pages: ['index'] },
          { anchor: 'Changelog', icon: 'clock', pages: ['changes'] },
        ],
      },
    }),
    'index.mdx': '---\ntitle: Home\n---\n\nHome.\n',
    'changes.mdx': '---\ntitle: Changes\n---\n\nChanges.\n',
  });
  const links = part(sidebar(await read(out, 'index.html')), /<ul class="enclave-sidebar-links">[\s\S]*?<\/ul>/);
  const icon = '<svg [^>]*class="enclave-nav-icon"[^>]*>[\\s\\S]*?<\\/svg>';
  t.regex(links, new RegExp(`<a href="index\\.html" aria-current="true">${icon}Handbook</a>`));
  t.regex(links, new RegExp(`<a href="changes\\.html">${icon}Changelog</a>`));
});
