import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import anyTest, { type TestFn } from 'ava';
import { renderDocs } from './renderFixture.js';

const test = anyTest as TestFn<{ root: string; out: string }>;

test.before(async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'enclave-switcher-'));
  await cp(join(import.meta.dirname, 'fixtures', 'switcher-site'), join(root, 'src'), { recursive: true });
  t.context = { root, out: (await renderDocs(join(root, 'src'))).out };
});
test.after.always((t) => rm(t.context.root, { recursive: true, force: true }));

const page = (t: { context: { out: string } }, path: string) => readFile(join(t.context.out, `${path}.html`), 'utf8');
/** The entries of the page's first switcher of `kind` (`label → href`). */
function switcher(html: string, kind: string): Record<string, string> {
  const m = new RegExp(`<summary><span class="enclave-visually-hidden">${kind}: </span>[^<]*</summary><ul>(.*?)</ul>`).exec(html);
  if (!m) return {};
  return Object.fromEntries([...m[1].matchAll(/<a href="([^"]+)"[^>]*>([^<]*)<\/a>/g)].map((a) => [a[2], a[1]]));
}

test('the language switcher leads to the same page in the other language, else its nearest ancestor, else that language home', async (t) => {
  t.deepEqual(switcher(await page(t, 'guides/start'), 'language'), {
    English: '../guides/start.html',
    Français: '../fr/guides/start.html',
    Español: '../es/index.html',
  });
  t.deepEqual(switcher(await page(t, 'guides/deep/one'), 'language'), {
    English: '../../guides/deep/one.html',
    Français: '../../fr/guides.html',
    Español: '../../es/index.html',
  });
  t.is(switcher(await page(t, 'fr/guides/start'), 'language').English, '../../guides/start.html', 'from a folder to none');
});

test('the version switcher keeps the page too, and lists no hidden version', async (t) => {
  t.deepEqual(switcher(await page(t, 'guides/start'), 'version'), { v2: '../guides/start.html', v1: '../v1/guides/start.html' });
  t.deepEqual(switcher(await page(t, 'guides/deep/one'), 'version'), { v2: '../../guides/deep/one.html', v1: '../../v1/index.html' });
});

test('a hidden version keeps its own sidebar, label and search scope, and its switcher leads to the listed versions', async (t) => {
  const html = await page(t, 'beta/guides/new');
  t.regex(html, /<summary><span class="enclave-visually-hidden">version: <\/span>beta<\/summary>/);
  t.regex(html, /<p class="enclave-group-title"[^>]*>Beta only<\/p>/);
  t.notRegex(html, /Old start|>Start</, 'no other version’s groups');
  t.regex(html, /<meta name="enclave-search-scope" content="language:en\|version:beta">/);
  t.deepEqual(
    switcher(html, 'version'),
    { v2: '../../index.html', v1: '../../v1/index.html' },
    'no page of the same name: the version home',
  );
  t.deepEqual(switcher(await page(t, 'beta/guides/start'), 'version'), {
    v2: '../../guides/start.html',
    v1: '../../v1/guides/start.html',
  });
  // Nothing else leads into the hidden version: the site home and the language switcher go to v2.
  t.is(switcher(await page(t, 'fr/index'), 'language').English, '../index.html');
});

test("a language's own global anchors show on its pages only, with their icons", async (t) => {
  const links = (html: string) => [...html.matchAll(/<ul class="enclave-sidebar-links">(.*?)<\/ul>/g)].map((m) => m[1]).join('');
  const en = links(await page(t, 'guides/start'));
  t.regex(en, /<a href="https:\/\/community\.example\.com"><svg[^>]*class="enclave-nav-icon"[^>]*>.*<\/svg>Community<\/a>/);
  t.notRegex(en, /communaute/);
  const fr = links(await page(t, 'fr/guides/start'));
  t.regex(fr, /<a href="https:\/\/communaute\.example\.com">Communauté<\/a>/);
  t.notRegex(fr, /community\.example/);
  t.is(links(await page(t, 'es/index')), '', 'a language without global anchors has none');
});
