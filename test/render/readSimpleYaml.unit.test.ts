import test from 'ava';
import { parse as parseYaml } from 'yaml';
import { readSimpleYaml } from '../../src/render/mdx/readSimpleYaml.js';

/** The full parser's reading, or undefined where it rejects the document. */
function full(raw: string): unknown {
  try {
    return parseYaml(raw);
  } catch {
    return undefined;
  }
}

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
