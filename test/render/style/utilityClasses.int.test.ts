import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { renderFiles } from '../renderFixture.js';

const docsJson = JSON.stringify({ name: 'Utilities', colors: { primary: '#0D9373' }, navigation: { pages: ['index', 'other'] } });

/** A hero section and a light/dark image pair written with Tailwind classes, as Mintlify authors do. */
const SITE = {
  'docs.json': docsJson,
  'index.mdx': [
    '---',
    'title: Home',
    '---',
    '',
    '<div className="flex gap-4 rounded-xl not-prose">',
    '  <span className="font-semibold md:text-lg">Hero</span>',
    '</div>',
    '',
    '<img className="block dark:hidden" src="/pair/light.png" alt="Light diagram" />',
    '<img className="hidden dark:block" src="/pair/dark.png" alt="Dark diagram" />',
    '',
    '```js',
    'const grid = "grid-cols-3";',
    '```',
    '',
  ].join('\n'),
  'other.mdx': '---\ntitle: Other\n---\n\n<div className="grid grid-cols-2 border">Two</div>\n',
  'pair/light.png': 'light',
  'pair/dark.png': 'dark',
};

async function utilitiesCss(out: string): Promise<{ name: string; css: string }> {
  const name = (await readdir(join(out, '_assets'))).find((f) => /^utilities\.css$/.test(f));
  if (!name) throw new Error('no utilities stylesheet in the bundle');
  return { name, css: await readFile(join(out, '_assets', name), 'utf8') };
}

test('the utility stylesheet holds exactly the classes the pages use, and every page links it', async (t) => {
  const { out } = await renderFiles(t, SITE);
  const { name, css } = await utilitiesCss(out);
  for (const cls of ['flex', 'gap-4', 'rounded-xl', 'font-semibold', 'md\\:text-lg', 'grid', 'grid-cols-2', 'border', 'hidden', 'block'])
    t.true(css.includes(`.${cls}`), cls);
  // Used only inside a code block: text, not markup, so no rule.
  t.false(css.includes('grid-cols-3'));
  // Not used anywhere: a hand list would have it, the engine doesn't.
  t.false(css.includes('.inline-flex'));
  t.regex(css, /@media \(min-width: 768px\)\{[^}]*md\\:text-lg/);
  for (const page of ['index.html', 'other.html'])
    t.true((await readFile(join(out, page), 'utf8')).includes(`href="_assets/${name}"`), page);
});

test('dark: utilities key on the theme switch (html[data-theme="dark"]) and outrank plain utilities', async (t) => {
  const { out } = await renderFiles(t, SITE);
  const { css } = await utilitiesCss(out);
  t.regex(css, /\[data-theme="dark"\] \.dark\\:hidden\)?\{display:none;\}/);
  t.regex(css, /\[data-theme="dark"\] \.dark\\:block\)?\{display:block;\}/);
  t.false(css.includes('prefers-color-scheme'));
  // Scoped under the content so the theme's own element rules (`.enclave-content img`) don't win.
  t.true(css.includes('.enclave-content :is(.hidden)'));
});

test("brand colours are Mintlify's primary, primary-light and primary-dark, with opacity modifiers", async (t) => {
  const { out } = await renderFiles(t, {
    'docs.json': JSON.stringify({
      name: 'Brand',
      colors: { primary: '#112233', light: '#445566', dark: '#778899' },
      navigation: { pages: ['index'] },
    }),
    'index.mdx': '<p className="text-primary dark:text-primary-light bg-primary-dark/10">Brand</p>\n',
  });
  const { css } = await utilitiesCss(out);
  t.regex(css, /\.text-primary\)\{[^}]*color:rgb\(17 34 51/);
  t.regex(css, /\[data-theme="dark"\] \.dark\\:text-primary-light\)\{[^}]*color:rgb\(68 85 102/);
  t.regex(css, /bg-primary-dark\\\/10\)\{background-color:rgb\(119 136 153 \/ 0\.1\)/);
});

test('a site that uses no utility classes still gets a (comment-only) stylesheet its pages can link', async (t) => {
  const { out } = await renderFiles(t, {
    'docs.json': docsJson,
    'index.mdx': '# Plain\n',
    'other.mdx': 'Text with a <span className="enclave-own">theme class</span>.\n',
  });
  const { css } = await utilitiesCss(out);
  t.false(css.includes('{'));
});

test('classes used only on pages rendered by worker threads still get their rules', async (t) => {
  const pages = Array.from({ length: 60 }, (_, i) => `p${i}`);
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({ name: 'Threads', colors: { primary: '#0D9373' }, navigation: { pages } }),
  };
  // Every page has its own class, so whichever thread renders a page, its rule must arrive.
  for (const [i, p] of pages.entries()) files[`${p}.mdx`] = `# Page ${i}\n\n<div className="mt-[${i + 1}px]">x</div>\n`;
  const { out, result } = await renderFiles(t, files, { threads: 1 });
  t.true((result.pagesByWorkers ?? 0) > 0, 'a worker thread rendered pages');
  const { css } = await utilitiesCss(out);
  for (let i = 1; i <= 60; i++) t.true(css.includes(`margin-top:${i}px;`), `mt-[${i}px]`);
});
