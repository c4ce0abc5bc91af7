import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { frontmatterText } from '../../src/render/mdx/parseSource.js';
import { readSimpleYaml } from '../../src/render/mdx/readSimpleYaml.js';

/** The full parser's reading, or undefined where it rejects the document. */
function full(raw: string): unknown {
  try {
    return parseYaml(raw);
  } catch {
    return undefined;
  }
}

function pages(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name.startsWith('.') || name === 'node_modules') return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? pages(path) : /\.mdx?$/.test(name) ? [path] : [];
  });
}

test('wherever the simple reader answers, it answers exactly what the YAML parser does (every page of the corpora)', (t) => {
  const roots = ['starter', 'mcp', 'unstructured'].map((c) => resolve('../shared/corpora', c)).concat(resolve('examples/sample-docs'));
  let answered = 0;
  let total = 0;
  for (const file of roots.flatMap(pages)) {
    const raw = frontmatterText(readFileSync(file, 'utf8'));
    if (raw === null) continue;
    total++;
    const simple = readSimpleYaml(raw);
    if (simple === null) continue;
    answered++;
    t.deepEqual(simple, full(raw), file);
  }
  t.log(`${answered} of ${total} frontmatter blocks read without the YAML parser`);
  // Most real frontmatter is this simple; a drop means the fast path stopped working.
  t.true(answered / total > 0.8, `${answered}/${total}`);
});

const HANDLED: string[] = [
  'title: "Quick start"\ndescription: "Set it up: in minutes"',
  "title: 'Single quoted'\nhidden: true\nnoindex: false",
  'title: Plain words, with commas (and brackets [x]) and C# or http://example.com/a#b\nicon: rocket',
  'title: Don\'t panic\nsidebarTitle: "It\'s fine"',
  'title: <b>raw</b> & more\n\nmode: wide',
];
for (const raw of HANDLED) {
  test(`handled: ${JSON.stringify(raw)}`, (t) => {
    const simple = readSimpleYaml(raw);
    t.not(simple, null);
    t.deepEqual(simple, full(raw));
  });
}

const DECLINED: string[] = [
  'title: 3 steps',
  'version: 1.2',
  'count: 42',
  'date: 2024-01-02',
  'title: -dash',
  'title: +plus',
  'title: .dot',
  'hidden: True',
  'hidden: yes',
  'flag: off',
  'title: null',
  'title: ~',
  'title:',
  'title: ""x',
  "title: 'it''s'",
  'title: "esc \\" quote"',
  'title: "tab\\t"',
  'title: a: b',
  'title: value # comment',
  'title: ends with:',
  'title: trailing ',
  ' title: indented',
  'title: "a"\ntitle: "b"',
  'seo:\n  noindex: true',
  'tags: [a, b]',
  'tags: {a: 1}',
  'list:\n  - a',
  'title: |\n  block',
  'title: >\n  folded',
  'title: &anchor x',
  'title: *alias',
  'title: !tag x',
  'title: @at',
  'title: `tick`',
  '"og:title": "quoted key"',
  '# comment\ntitle: x',
  'title: x\r',
  'title: "unterminated',
  'title: a\\b',
];
for (const raw of DECLINED) {
  test(`declined: ${JSON.stringify(raw)}`, (t) => {
    t.is(readSimpleYaml(raw), null);
  });
}
