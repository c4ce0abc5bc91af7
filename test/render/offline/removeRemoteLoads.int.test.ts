import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { BuildReport } from '../../../src/render/report/BuildReport.js';
import { renderFiles } from '../renderFixture.js';
import { REMOTE_SITE } from './remoteSite.js';

const readReport = async (out: string) => JSON.parse(await readFile(join(out, '_enclave/report.json'), 'utf8')) as BuildReport;

test("remote images and frames become a visible placeholder with alt text and a link, or the source's own copy", async (t) => {
  const { out } = await renderFiles(t, REMOTE_SITE);
  const home = await readFile(join(out, 'index.html'), 'utf8');
  t.regex(
    home,
    /<span class="enclave-remote" data-remote-kind="image"><span class="enclave-remote-alt">Architecture overview<\/span><span class="enclave-remote-note">Image not included in the offline copy<\/span><a class="enclave-remote-link" href="https:\/\/cdn\.example\.net\/img\/architecture\.png" rel="noreferrer noopener">Open the original<\/a><\/span>/,
  );
  // The source keeps a copy with the same file name: it is used instead of a placeholder.
  t.regex(home, /<img src="assets\/logo-mark\.svg" alt="Logo mark">/);
  const media = await readFile(join(out, 'guides/media.html'), 'utf8');
  t.regex(media, /data-remote-kind="frame"><span class="enclave-remote-alt">Intro video<\/span>/);
  t.false(/<iframe/.test(media));
  t.false(media.includes('x@2x.png'));
  for (const html of [home, media])
    t.deepEqual(
      html.match(/<(?:img|iframe|script|link rel="stylesheet"|source|video|audio)\b[^>]*(?:src|srcset|href)="(?:https?:)?\/\/[^"]*"/g),
      null,
    );
  const report = await readReport(out);
  t.deepEqual(
    report.removedRemote
      .filter((r) => r.action !== 'removed')
      .map((r) => [r.page, r.kind, r.action, r.url])
      .sort(),
    [
      ['guides/media', 'frame', 'placeholder', 'https://video.example.net/embed/abc'],
      ['guides/media', 'image', 'placeholder', 'https://cdn.example.net/x.png'],
      ['index', 'image', 'local copy', 'https://cdn.example.net/brand/logo-mark.svg'],
      ['index', 'image', 'placeholder', 'https://cdn.example.net/img/architecture.png'],
    ].sort(),
  );
  t.is(report.removedRemote.find((r) => r.action === 'local copy')?.local, 'assets/logo-mark.svg');
});

test('a remote light/dark image pair keeps its classes on the placeholders, so only one shows', async (t) => {
  const { out } = await renderFiles(t, {
    'docs.json': JSON.stringify({ name: 'Pair', colors: { primary: '#0D9373' }, navigation: { pages: ['index'] } }),
    'index.mdx':
      '<img className="block dark:hidden" src="https://cdn.example.net/l.png" alt="Light" />\n<img className="hidden dark:block" src="https://cdn.example.net/d.png" alt="Dark" />\n',
  });
  const home = await readFile(join(out, 'index.html'), 'utf8');
  t.regex(home, /<span class="enclave-remote block dark:hidden" data-remote-kind="image"><span class="enclave-remote-alt">Light</);
  t.regex(home, /<span class="enclave-remote hidden dark:block" data-remote-kind="image"><span class="enclave-remote-alt">Dark</);
  const css = await readFile(join(out, '_assets', (await readdir(join(out, '_assets'))).find((f) => f.startsWith('utilities.'))!), 'utf8');
  t.true(css.includes('.dark\\:hidden'));
});

test('script, stylesheet link and inline-style url() written in a page are taken out too', async (t) => {
  const { out } = await renderFiles(t, REMOTE_SITE);
  const media = await readFile(join(out, 'guides/media.html'), 'utf8');
  const body = media.slice(media.indexOf('<div class="enclave-content">'), media.indexOf('<div id="enclave-feedback"'));
  t.false(body.includes('tags.example.net'));
  t.false(body.includes('fonts.example.net'));
  t.false(body.includes('hero.jpg'));
  t.regex(body, /<img src="\.\.\/images\/local-only\.png" alt="Local retina">/);
  t.regex(body, /<div class="hero" style="background-image:none;color:teal">Hero<\/div>/);
  const removed = (await readReport(out)).removedRemote
    .filter((r) => r.page === 'guides/media' && r.action === 'removed')
    .map((r) => `${r.kind} ${r.url}`)
    .sort();
  t.deepEqual(removed, [
    'image https://cdn.example.net/hero.jpg',
    'image https://cdn.example.net/local@2x.png 2x',
    'script https://tags.example.net/inline.js',
    'stylesheet https://fonts.example.net/inline.css',
  ]);
});

test("custom CSS loses its remote @import and url()s, a custom script that loads third-party code is left out, and docs.json's remote font is dropped", async (t) => {
  const { out } = await renderFiles(t, REMOTE_SITE);
  const css = await readFile(join(out, 'style.css'), 'utf8');
  t.false(/url\(\s*['"]?(?:https?:)?\/\//.test(css));
  t.false(/@import\s+url/.test(css));
  t.true(css.includes('.hero{background:none center;color:red}'), 'the rest of the rule stays');
  t.false(existsSync(join(out, 'analytics.js')));
  const home = await readFile(join(out, 'index.html'), 'utf8');
  t.false(home.includes('analytics.js'));
  t.true(home.includes('<script src="local.js"></script>'));
  const siteCss = await readFile(join(out, home.match(/href="(_assets\/site\.[0-9a-f]+\.css)"/)![1]), 'utf8');
  t.false(siteCss.includes('fonts.example.net'));
  const report = await readReport(out);
  const removed = (page: string) =>
    report.removedRemote
      .filter((r) => r.page === page)
      .map((r) => `${r.kind} ${r.url} ${r.action}`)
      .sort();
  t.deepEqual(removed('style.css'), [
    'font https://fonts.example.net/css2?family=Sans removed',
    'font https://fonts.example.net/x.woff2 removed',
    'image https://cdn.example.net/bg.jpg removed',
  ]);
  t.deepEqual(removed('analytics.js'), ['script https://tags.example.net/gtag.js removed']);
  t.deepEqual(removed('docs.json'), ['font https://fonts.example.net/webby.woff2 removed']);
});

test('keepRemoteAssets leaves remote loads as the author wrote them (and removes nothing)', async (t) => {
  const { out } = await renderFiles(t, REMOTE_SITE, { keepRemoteAssets: true });
  const home = await readFile(join(out, 'index.html'), 'utf8');
  t.true(home.includes('src="https://cdn.example.net/img/architecture.png"'));
  t.true(home.includes('<script src="analytics.js"></script>'));
  t.true(existsSync(join(out, 'analytics.js')));
  t.true((await readFile(join(out, 'style.css'), 'utf8')).includes("@import url('https://fonts.example.net/css2?family=Sans')"));
  t.deepEqual((await readReport(out)).removedRemote, []);
});

test('Inter is bundled and is the default font: its @font-face files are inside the bundle', async (t) => {
  const { out } = await renderFiles(t, {
    'docs.json': JSON.stringify({ name: 'Plain', colors: { primary: '#0D9373' }, navigation: { pages: ['index'] } }),
    'index.mdx': '# Hi\n',
  });
  const home = await readFile(join(out, 'index.html'), 'utf8');
  const interCss = home.match(/href="(_assets\/inter\.[0-9a-f]+\.css)"/)?.[1];
  t.truthy(interCss);
  const css = await readFile(join(out, interCss!), 'utf8');
  const files = [...css.matchAll(/url\((inter\/[^)]+)\)/g)].map((m) => m[1]);
  t.true(files.includes('inter/inter-latin-wght-normal.woff2'));
  for (const f of files) t.true(existsSync(join(out, '_assets', f)), f);
  const theme = await readFile(join(out, home.match(/href="(_assets\/theme\.[0-9a-f]+\.css)"/)![1]), 'utf8');
  t.regex(theme, /--enclave-font: "Inter Variable"/);
});

test('a remote logo or favicon in docs.json is left out (the site name stands in) and reported', async (t) => {
  const { out } = await renderFiles(t, {
    'docs.json': JSON.stringify({
      name: 'Remote Logo',
      colors: { primary: '#0D9373' },
      logo: { light: 'https://cdn.example.net/logo.svg', dark: 'https://cdn.example.net/logo-dark.svg' },
      favicon: 'https://cdn.example.net/favicon.ico',
      navigation: { pages: ['index'] },
    }),
    'index.mdx': '# Home\n',
  });
  const home = await readFile(join(out, 'index.html'), 'utf8');
  t.false(home.includes('cdn.example.net'));
  t.regex(home, /<a class="enclave-logo" href="index\.html"><span>Remote Logo<\/span><\/a>/);
  t.deepEqual((await readReport(out)).removedRemote.map((r) => `${r.page} ${r.kind} ${r.url}`).sort(), [
    'docs.json image https://cdn.example.net/favicon.ico',
    'docs.json image https://cdn.example.net/logo-dark.svg',
    'docs.json image https://cdn.example.net/logo.svg',
  ]);
});

test('an SVG <image> or <use> loses a remote href and gets a local one made relative (a missing one reported)', async (t) => {
  const { out } = await renderFiles(t, {
    'docs.json': JSON.stringify({ name: 'Drawings', colors: { primary: '#0D9373' }, navigation: { pages: ['index', 'shapes/dots'] } }),
    'index.mdx': [
      '# Home',
      '',
      '<svg width="24" height="24"><image href="https://cdn.example.net/badge.png" width="24" height="24" /></svg>',
      '',
      '<svg width="24" height="24"><use xlinkHref="https://cdn.example.net/glyphs.svg#star" /></svg>',
      '',
    ].join('\n'),
    'shapes/dots.mdx': [
      '# Dots',
      '',
      '<svg width="24" height="24"><use href="/sprites/dots.svg#dot" /></svg>',
      '',
      '<svg width="24" height="24"><use href="glyphs/absent.svg#ring" /></svg>',
      '',
      '<svg width="24" height="24"><defs><circle id="here" r="3" /></defs><use href="#here" /></svg>',
      '',
    ].join('\n'),
    'sprites/dots.svg': '<svg xmlns="http://www.w3.org/2000/svg"><symbol id="dot"><circle r="4"/></symbol></svg>',
  });
  const home = await readFile(join(out, 'index.html'), 'utf8');
  t.false(home.includes('cdn.example.net'));
  t.true(home.includes('<image width="24" height="24"></image>'));
  const dots = await readFile(join(out, 'shapes/dots.html'), 'utf8');
  // Root-absolute would resolve to the disk's root under file://: it becomes relative to the page.
  t.true(dots.includes('<use href="../sprites/dots.svg#dot"></use>'));
  t.true(dots.includes('<use href="#here"></use>'));
  const report = await readReport(out);
  t.deepEqual(report.removedRemote.map((r) => `${r.page} ${r.kind} ${r.url} ${r.action}`).sort(), [
    'index image https://cdn.example.net/badge.png removed',
    'index image https://cdn.example.net/glyphs.svg#star removed',
  ]);
  t.deepEqual(report.missingImages, [{ page: 'shapes/dots', src: 'glyphs/absent.svg#ring' }]);
});
