import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { CodeTokenizerThread } from '../../src/render/code/CodeTokenizerThread.js';
import { openFolderSink } from '../../src/bundle/openFolderSink.js';
import { renderSite } from '../../src/render/renderSite.js';
import { renderDocs, renderFiles, renderFilesForSuite, writeDocs } from './renderFixture.js';

const docsJson = (navigation: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: 'Fixture', colors: { primary: '#0D9373' }, navigation, ...extra });
const read = (out: string, rel: string) => readFile(join(out, rel), 'utf8');

const SITE = {
  'docs.json': docsJson(
    {
      tabs: [
        { tab: 'Guides', groups: [{ group: 'Start', pages: ['index', 'guides/setup', { group: 'Deep', pages: ['guides/deep/nested'] }] }] },
      ],
    },
    {
      redirects: [
        { source: '/old-setup', destination: '/guides/setup' },
        { source: '/legacy/:slug*', destination: '/guides/:slug*' },
      ],
    },
  ),
  'index.mdx':
    '---\ntitle: Home\ndescription: The start\n---\n\nWelcome. See [setup](/guides/setup#install-it) and [nested](guides/deep/nested).\n',
  'guides/setup.mdx': [
    '---',
    'title: Setup',
    '---',
    '',
    "import Intro from '/snippets/intro.mdx';",
    '',
    "export const product = 'Enclave';",
    '',
    '<Intro name="Ada" />',
    '',
    '## Install it',
    '',
    'Use {product} here.',
    '',
    '## Custom heading {#my-anchor}',
    '',
    'Text.',
    '',
    '## Install it',
    '',
    'Second heading with the same text.',
    '',
    '<Mystery>kept child text</Mystery>',
    '',
    '![diagram](../images/pic.png)',
    '',
    '![gone](/images/missing.png)',
    '',
    '[up](../index) [self](#my-anchor) [bad anchor](#nope) [nowhere](/does/not/exist)',
    '',
  ].join('\n'),
  'guides/deep/nested.mdx':
    '---\ntitle: Nested\n---\n\n[home](/) [setup](../setup#install-it-1) [old](/old-setup)\n\n<img src="https://cdn.example.net/x.png" alt="remote" />\n',
  'snippets/intro.mdx': 'Hello {name}, from a snippet.\n\n```bash\necho "{name}"\n```\n',
  'images/pic.png': 'not really a png',
  'extra/unlisted.md': '# Unlisted page\n\nPlain markdown with <b>raw html</b>.\n',
};

// SITE rendered once for the eight tests that only read its output (each used to render it anew).
let siteRendered: Promise<Awaited<ReturnType<typeof renderFilesForSuite>>>;
// Started, not awaited: the tests that need it wait for it, while the others run beside it. A
// failed render fails each of those tests (the catch only keeps it from being an unhandled rejection).
test.before(() => {
  siteRendered = renderFilesForSuite(SITE);
  siteRendered.catch(() => {});
});
test.after.always(() =>
  siteRendered.then(
    (site) => site.remove(),
    () => {},
  ),
);

test('renders every page, including pages outside the navigation, with relative links at every depth', async (t) => {
  const { out, result } = await siteRendered;
  t.is(result.expected, 4);
  t.is(result.pageCount, 4);
  t.is(result.failed, 0);
  t.is(result.version, `2026-03-04.${result.version.slice(11)}`);
  t.regex(result.version, /^2026-03-04\.[0-9a-f]{6}$/);

  const home = await read(out, 'index.html');
  t.regex(home, /href="guides\/setup\.html#install-it"/);
  t.regex(home, /href="guides\/deep\/nested\.html"/);
  t.regex(home, /href="_assets\/theme\.[0-9a-f]{10}\.css"/);

  const nested = await read(out, 'guides/deep/nested.html');
  t.regex(nested, /href="\.\.\/\.\.\/index\.html"/, 'root link from depth 2');
  t.regex(nested, /href="\.\.\/setup\.html#install-it-1"/);
  t.regex(nested, /href="\.\.\/\.\.\/old-setup\.html"/, 'links to a redirect source go to its forwarding page');
  t.regex(nested, /<link rel="stylesheet" href="\.\.\/\.\.\/_assets\/theme\.[0-9a-f]{10}\.css">/);
  t.notRegex(nested, /(href|src)="\/(?!\/)/, 'no root-absolute URLs in a normal page');
  const sidebar = /<nav id="enclave-sidebar"[\s\S]*?<\/nav>/.exec(nested)![0];
  t.deepEqual(
    [...sidebar.matchAll(/<a [^>]*aria-current="page"[^>]*>([^<]*)/g)].map((m) => m[1]),
    ['Nested'],
    'only its own sidebar link is current',
  );
  t.regex(sidebar, /<a href="\.\.\/\.\.\/guides\/setup\.html">Setup<\/a>/, 'other links carry nothing extra');
  t.notRegex(nested, /[\u0001\u0002\uE000-\uF8FF]/, 'no template placeholders left');

  const unlisted = await read(out, 'extra/unlisted.html');
  t.regex(unlisted, /<h1>Unlisted page<\/h1>/, 'a leading # heading becomes the title');
  t.regex(unlisted, /<b>raw html<\/b>/, '.md pages keep raw HTML');
  t.notRegex(unlisted, /href="[^"]*extra\/unlisted\.html" aria-current/, 'not in the sidebar');
});

test('private-use characters (icon-font glyphs) are kept as text; control characters never reach the page', async (t) => {
  const { out } = await renderFiles(t, {
    'docs.json': docsJson([{ group: 'G', pages: ['index', 'deep/glyphs'] }]),
    'index.mdx': '---\ntitle: Home\n---\n\nHome.\n',
    'deep/glyphs.mdx': '---\ntitle: "Icons \uE000 here\u0001"\n---\n\nGlyph \uE000 and \uE001 in text.\n',
  });
  const page = await read(out, 'deep/glyphs.html');
  t.regex(page, /<title>Icons \uE000 here - Fixture<\/title>/, 'the title keeps its glyph and loses the control character');
  t.regex(page, /<h1>Icons \uE000 here<\/h1>/);
  t.regex(page, /Glyph \uE000 and \uE001 in text\./, 'content keeps private-use characters');
  t.regex(page, />Icons \uE000 here<\/a>/, 'so does the sidebar label');
  t.notRegex(page, /[\u0001\u0002]/, 'no control character (or template mark) in the page');
  t.regex(page, /href="\.\.\/index\.html"/, 'root links at depth 1 are still filled in');
});

test('headings get Mintlify/github-slugger ids, {#custom} ids, anchor links and a TOC', async (t) => {
  const { out } = await siteRendered;
  const html = await read(out, 'guides/setup.html');
  t.regex(html, /<h2 id="install-it">Install it<a class="enclave-anchor" href="#install-it"/);
  t.regex(html, /<h2 id="my-anchor">Custom heading<a/);
  t.regex(html, /<h2 id="install-it-1">/, 'duplicate headings are numbered');
  t.regex(html, /<aside class="enclave-toc"[^>]*>.*href="#my-anchor">Custom heading<\/a>/s);
});

test('snippets render with props in text and code; page exports are evaluated; unknown components keep their children', async (t) => {
  const { out, result } = await siteRendered;
  const html = await read(out, 'guides/setup.html');
  t.regex(html, /Hello Ada, from a snippet\./);
  t.regex(html.replace(/<[^>]+>/g, ''), /echo "Ada"/, 'props are substituted inside snippet code blocks');
  t.regex(html, /Use Enclave here\./);
  t.regex(html, /kept child text/);
  t.deepEqual(result.report.unknownComponents, { Mystery: 1 });
  t.deepEqual(result.fallbackPages, ['guides/setup']);
});

test('the report lists broken links and anchors, missing images and external URLs', async (t) => {
  const { out, result } = await siteRendered;
  const report = JSON.parse(await read(out, '_enclave/report.json'));
  t.deepEqual(report, result.report);
  t.deepEqual(report.pages, { expected: 4, rendered: 4, missing: 0, failed: [] });
  t.deepEqual(report.brokenLinks.map((b: { page: string; href: string; reason: string }) => `${b.page} ${b.href}: ${b.reason}`).sort(), [
    'guides/setup #nope: no heading or anchor #nope on /guides/setup',
    'guides/setup /does/not/exist: no page, redirect or file at /does/not/exist',
  ]);
  t.deepEqual(report.missingImages, [{ page: 'guides/setup', src: '/images/missing.png' }]);
  t.deepEqual(report.externalUrls, [{ page: 'guides/deep/nested', url: 'https://cdn.example.net/x.png' }]);
  const setup = await read(out, 'guides/setup.html');
  t.regex(setup, /src="\.\.\/images\/pic\.png"/);
  t.is(await read(out, 'images/pic.png'), 'not really a png', 'static files are copied');
});

test('manifest lists every file with a correct size and sha256, and the page list', async (t) => {
  const { out } = await siteRendered;
  const manifest = JSON.parse(await read(out, '_enclave/manifest.json'));
  t.is(manifest.formatVersion, 1);
  t.is(manifest.domain, 'docs.example.com');
  t.is(manifest.jobId, 'job-1');
  t.is(manifest.createdAt, '2026-03-04T05:06:07.000Z');
  t.deepEqual(manifest.generator, { name: 'enclave', version: '9.9.9' });
  t.deepEqual(manifest.pages.map((p: { path: string }) => p.path).sort(), [
    'extra/unlisted',
    'guides/deep/nested',
    'guides/setup',
    'index',
  ]);
  const paths = manifest.files.map((f: { path: string }) => f.path);
  for (const required of [
    'index.html',
    '404.html',
    'sitemap.xml',
    'llms.txt',
    'llms-full.txt',
    'index.md',
    '_enclave/report.json',
    'old-setup.html',
  ])
    t.true(paths.includes(required), required);
  t.false(paths.includes('_enclave/manifest.json'));
  t.notRegex(await read(out, '404.html'), /id="enclave-feedback"/, 'readers cannot rate the 404 page');
  t.regex(await read(out, 'index.html'), /id="enclave-feedback" class="enclave-feedback" data-page="\/"/);
  for (const f of manifest.files) {
    const data = await readFile(join(out, f.path));
    t.is(data.length, f.size, f.path);
    t.is(createHash('sha256').update(data).digest('hex'), f.sha256, f.path);
  }
});

test('redirects (literal and patterned) become forwarding pages; sitemap and canonical URLs are extensionless', async (t) => {
  const { out } = await siteRendered;
  const redirect = await read(out, 'old-setup.html');
  t.regex(redirect, /<meta http-equiv="refresh" content="0; url=guides\/setup\.html">/);
  t.regex(redirect, /<a href="guides\/setup\.html">/);
  const patterned = await read(out, 'legacy/setup.html');
  t.regex(patterned, /url=\.\.\/guides\/setup\.html/);
  const sitemap = await read(out, 'sitemap.xml');
  t.regex(sitemap, /<loc>https:\/\/docs\.example\.com\/<\/loc>/);
  t.regex(sitemap, /<loc>https:\/\/docs\.example\.com\/guides\/setup<\/loc>/);
  t.notRegex(sitemap, /\.html/);
  t.notRegex(sitemap, /unlisted/, 'pages outside the navigation are not indexed by default');
  t.regex(await read(out, 'guides/setup.html'), /<link rel="canonical" href="https:\/\/docs\.example\.com\/guides\/setup">/);
});

test('llms.txt links Markdown copies; each page has a .md copy without frontmatter or imports', async (t) => {
  const { out } = await siteRendered;
  const llms = await read(out, 'llms.txt');
  t.regex(llms, /^# Fixture/);
  t.regex(llms, /- \[Setup\]\(guides\/setup\.md\)/);
  t.regex(llms, /- \[Home\]\(index\.md\): The start/);
  const md = await read(out, 'guides/setup.md');
  t.regex(md, /^# Setup\n/);
  t.notRegex(md, /^---/m);
  t.notRegex(md, /import Intro/);
  t.regex(md, /## Install it/);
  t.regex(await read(out, 'llms-full.txt'), /# Nested/);
});

test('the search index is a classic script setting a global, under one name in every export', async (t) => {
  const { out } = await siteRendered;
  const home = await read(out, 'index.html');
  const m = /data-search-index="(_assets\/search-index\.js)"/.exec(home);
  t.truthy(m);
  const script = await read(out, m![1]);
  t.regex(script, /^window\.__enclaveSearchIndex=/);
  const data = JSON.parse(script.slice('window.__enclaveSearchIndex='.length).replace(/;\n$/, ''));
  const setup = data.pages.find((p: string[]) => p[0] === 'guides/setup');
  t.is(setup[1], 'Setup');
  t.true(setup[2].includes('Install it'));
});

test('a bad page gets an error page and is reported; strict mode rejects instead', async (t) => {
  const files = {
    'docs.json': docsJson({ groups: [{ group: 'G', pages: ['good', 'bad'] }] }),
    'good.mdx': '# Good\n',
    'bad.mdx': '---\ntitle: Bad\n---\n\n<Card title="x">\n\nunclosed\n',
  };
  const { out, result } = await renderFiles(t, files);
  t.is(result.pageCount, 1);
  t.is(result.failed, 1);
  t.is(result.report.pages.failed[0].path, 'bad');
  t.regex(result.report.pages.failed[0].reason, /.+/);
  t.regex(await read(out, 'bad.html'), /This page could not be rendered/);
  t.regex(await read(out, 'good.html'), /<h1>Good<\/h1>/);

  const src = await writeDocs(t, files);
  await t.throwsAsync(renderDocs(src, { strict: true }), { message: /page \/bad failed to render/ });
});

test('a missing source folder, a source that vanishes mid-render, and a non-empty output folder are rejected clearly', async (t) => {
  const names = Array.from({ length: 20 }, (_, i) => `p${i}`);
  const src = await writeDocs(t, {
    'docs.json': docsJson({ pages: names }),
    ...Object.fromEntries(names.map((n) => [`${n}.mdx`, `# ${n}`])),
  });
  await t.throwsAsync(
    renderSite({
      sourceDir: join(src, 'nope'),
      out: await openFolderSink(join(src, '..', 'o1')),
      domain: 'd.test',
      jobId: 'j',
      now: new Date(),
      generatorVersion: '1',
    }),
    { message: /does not exist/ },
  );

  // onProgress runs synchronously after the first page: the folder is gone while the rest render.
  await t.throwsAsync(
    renderDocs(src, {
      onProgress: (n) => {
        if (n === 1) rmSync(src, { recursive: true, force: true });
      },
    }),
    { message: /vanished/ },
  );

  const src2 = await writeDocs(t, { 'a.mdx': '# A' });
  const busy = join(src2, '..', 'busy');
  await mkdir(busy, { recursive: true });
  await writeFile(join(busy, 'keep.txt'), 'x');
  await t.throwsAsync(openFolderSink(busy), { message: /not empty/ });
});

test('without an index page the home URL forwards to the first page; paths renders a subset', async (t) => {
  const files = {
    'docs.json': docsJson({ pages: ['first', 'second'] }),
    'first.mdx': '# First',
    'second.mdx': '# Second\n\n[first](/first)',
  };
  const { out } = await renderFiles(t, files);
  t.regex(await read(out, 'index.html'), /url=first\.html/);

  const src = await writeDocs(t, files);
  const { out: subsetOut, result } = await renderDocs(src, { paths: ['/second'] });
  t.is(result.expected, 1);
  await t.throwsAsync(stat(join(subsetOut, 'first.html')));
  t.deepEqual(
    result.report.brokenLinks,
    [{ page: 'second', href: '/first', reason: 'no page, redirect or file at /first' }],
    'a link to a page left out of the subset is reported',
  );
});

test('progress is reported per page, and every page names its path for the feedback widget', async (t) => {
  const seen: [number, number][] = [];
  const { out } = await renderFiles(
    t,
    { 'docs.json': docsJson({ pages: ['index', 'b'] }), 'index.mdx': '# A', 'b.mdx': '# B' },
    {
      onProgress: (n, total) => seen.push([n, total]),
    },
  );
  t.deepEqual(seen, [
    [1, 2],
    [2, 2],
  ]);
  t.regex(await read(out, 'b.html'), /<meta name="enclave-page" content="\/b">/);
});

/** Generates a site of `pages` pages under `root`; what it returns renders it into `<root>/<name>`. */
async function renderGenerated(root: string, pages: number) {
  const { execFileSync } = await import('node:child_process');
  execFileSync(process.execPath, ['../shared/bin/gen-corpus.mjs', join(root, 'src'), String(pages)], { stdio: 'ignore' });
  return async (name: string, extra: Partial<Parameters<typeof renderSite>[0]> = {}) =>
    renderSite({
      sourceDir: join(root, 'src'),
      out: await openFolderSink(join(root, name)),
      domain: 'd.test',
      jobId: 'j',
      now: new Date('2026-01-01T00:00:00Z'),
      generatorVersion: '1',
      ...extra,
    });
}

/** The two renders under `root` wrote the same files, byte for byte (the manifest up to its date). */
async function assertSameBundles(t: ExecutionContext, root: string, a: string, b: string) {
  const { readdir, readFile: readBytes } = await import('node:fs/promises');
  const list = async (dir: string) =>
    (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(dir.length))
      .sort();
  const files = await list(join(root, a));
  t.deepEqual(await list(join(root, b)), files);
  for (const file of files) {
    if (file.endsWith('manifest.json')) continue; // holds createdAt only; compared via its page list below
    t.true((await readBytes(join(root, a, file))).equals(await readBytes(join(root, b, file))), file);
  }
  const pages = (dir: string) => readBytes(join(root, dir, '_enclave/manifest.json'), 'utf8').then((m) => JSON.parse(m).pages);
  t.deepEqual(await pages(b), await pages(a));
}

const tempRoot = async (t: ExecutionContext, prefix: string) => {
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const root = await mkdtemp(join(tmpdir(), prefix));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  return root;
};

test('rendering with worker threads produces exactly the same bundle as rendering on one thread', async (t) => {
  const root = await tempRoot(t, 'enclave-threads-');
  const render = await renderGenerated(root, 240);
  const single = await render('one', { threads: 0 });
  const parallel = await render('two', { threads: 2 });
  t.is(parallel.pageCount, 240);
  t.true(parallel.pagesByWorkers! > 0, `the worker thread rendered ${parallel.pagesByWorkers} pages`);
  t.true(
    parallel.report.warnings.every((w) => !/thread stopped/.test(w.message)),
    'the worker thread did its share',
  );
  t.deepEqual(parallel.report, single.report);
  await assertSameBundles(t, root, 'one', 'two');
});

test('code tokenized by a tokenizer thread gives exactly the same bundle as code tokenized on the render thread', async (t) => {
  const root = await tempRoot(t, 'enclave-code-thread-');
  const render = await renderGenerated(root, 120);
  const alone = await render('alone');
  // Long waits: which thread tokenizes a block must not depend on how loaded the machine is.
  const codeThread = new CodeTokenizerThread({ setupWaitMs: 60_000, stallMs: 60_000 });
  t.teardown(() => codeThread.close());
  // Warmed as in a spare worker. (The suite runs with no per-line time limit, see
  // src/render/code/lineTimeLimit.ts, so a cold grammar's slow first line is not cut short.)
  await codeThread.warmUp(['ts']);
  const beside = await render('beside', { codeThread: () => codeThread });
  t.is(beside.pageCount, 120);
  t.true(codeThread.delivered > 0, `the thread tokenized ${codeThread.delivered} blocks`);
  t.deepEqual(beside.report, alone.report);
  await assertSameBundles(t, root, 'alone', 'beside');
});

test('a site that fences many languages is not given a tokenizer thread: each grammar would be held twice', async (t) => {
  const root = await tempRoot(t, 'enclave-many-languages-');
  const render = await renderGenerated(root, 12);
  let asked = 0;
  const few = await render('few', { codeThread: () => void asked++ });
  t.true(few.languages.length <= 8);
  t.is(asked, 1, 'a site with few languages asks for one');
  const langs = ['python', 'bash', 'json', 'yaml', 'go', 'rust', 'java', 'ruby', 'toml'];
  const fences = langs.map((lang) => `\`\`\`${lang}\nx\n\`\`\``).join('\n\n');
  await writeFile(join(root, 'src', 'many.mdx'), `---\ntitle: Many\n---\n\n${fences}\n`);
  const many = await render('many', { codeThread: () => void asked++ });
  t.true(many.languages.length > 8, many.languages.join(' '));
  t.is(asked, 1, 'none asked for this time');
});

test('a page inside nested groups opens exactly those groups in its sidebar, at any depth, and no other page opens them', async (t) => {
  const { out } = await renderFiles(t, {
    'docs.json': docsJson([
      {
        group: 'G',
        pages: [
          'index',
          { group: 'Outer', pages: ['a/one', { group: 'Inner', pages: ['a/b/two'] }] },
          { group: 'Other', pages: ['three'] },
        ],
      },
    ]),
    'index.mdx': '---\ntitle: Home\n---\n\nHome.\n',
    'a/one.mdx': '---\ntitle: One\n---\n\nOne.\n',
    'a/b/two.mdx': '---\ntitle: Two\n---\n\nTwo.\n',
    'three.mdx': '---\ntitle: Three\n---\n\nThree.\n',
  });
  const sidebarOf = async (rel: string) => /<nav id="enclave-sidebar"[\s\S]*?<\/nav>/.exec(await read(out, rel))![0];
  const opened = (sidebar: string) =>
    [...sidebar.matchAll(/<details data-gid="\d+"( open)?><summary>([^<]*)<\/summary>/g)].map((m) => `${m[2]}${m[1] ? ' (open)' : ''}`);

  const two = await sidebarOf('a/b/two.html');
  t.deepEqual(opened(two), ['Outer (open)', 'Inner (open)', 'Other']);
  t.regex(two, /<a href="\.\.\/\.\.\/a\/b\/two\.html" aria-current="page">Two<\/a>/, 'its own link is current, relative from depth 2');
  t.deepEqual(opened(await sidebarOf('a/one.html')), ['Outer (open)', 'Inner', 'Other']);
  t.deepEqual(opened(await sidebarOf('three.html')), ['Outer', 'Inner', 'Other (open)']);
  const home = await sidebarOf('index.html');
  t.deepEqual(opened(home), ['Outer', 'Inner', 'Other']);
  t.regex(home, /<a href="a\/b\/two\.html">Two<\/a>/, 'the same link from the root, not current');
});

test('a frontmatter description shows its inline Markdown rendered, links made relative; meta tags get its text', async (t) => {
  const { out, result } = await renderFiles(t, {
    'docs.json': JSON.stringify({ name: 'Described', navigation: { pages: ['guide/intro', 'guide/other'] } }),
    'guide/intro.mdx': '---\ntitle: Intro\ndescription: Use `the-cli` with **care**, see [the other page](/guide/other).\n---\n\nBody.\n',
    'guide/other.mdx': '---\ntitle: Other\ndescription: Plain words only.\n---\n\nBody.\n',
  });
  t.is(result.failed, 0);
  const intro = await readFile(join(out, 'guide/intro.html'), 'utf8');
  const shown = /<p class="enclave-description">(.*?)<\/p>/.exec(intro)?.[1] ?? '';
  t.is(shown, 'Use <code>the-cli</code> with <strong>care</strong>, see <a href="other.html">the other page</a>.');
  t.true(intro.includes('<meta name="description" content="Use the-cli with care, see the other page.">'), 'meta gets plain text');
  const other = await readFile(join(out, 'guide/other.html'), 'utf8');
  t.true(other.includes('<p class="enclave-description">Plain words only.</p>'));
  t.true((await readFile(join(out, 'guide/intro.md'), 'utf8')).includes('`the-cli`'), 'the Markdown copy keeps the source text');
});
