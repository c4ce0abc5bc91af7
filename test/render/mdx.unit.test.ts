import test from 'ava';
import { renderFiles } from './renderFixture.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const content = async (out: string, rel: string) => {
  const html = await readFile(join(out, rel), 'utf8');
  return html.slice(html.indexOf('<div class="enclave-content">'), html.indexOf('<div id="enclave-feedback"'));
};

test('export const values, arrow-function components, JSX props and expressions render statically', async (t) => {
  const { out, result } = await renderFiles(t, {
    'docs.json': JSON.stringify({ name: 'X', navigation: { pages: ['index'] } }),
    'index.mdx': [
      '---',
      'title: X',
      '---',
      '',
      "export const names = ['ada', 'linus'];",
      'export const cfg = { region: `eu-${1 + 1}`, nested: { on: true } };',
      'export const Pill = ({ label, children }) => (<span className="pill" data-label={label}>{children}</span>);',
      'export function Shout({ text = "hi" }) { const up = text.toUpperCase(); return <strong>{up}!</strong>; }',
      '',
      'Region {cfg.region}, nested {cfg.nested.on ? "yes" : "no"}, list {names.map((n) => n.toUpperCase()).join(", ")}.',
      '',
      '<Pill label="a">inside</Pill> <Shout text="loud" /> <Shout />',
      '',
      '<div style={{ marginTop: 4, color: "red" }} className="box">boxed</div>',
      '',
      '{/* a comment renders nothing */}',
      '',
      'Unknown {notDefined} and {globalThis.process} stay empty.',
      '',
    ].join('\n'),
  });
  const html = await content(out, 'index.html');
  t.regex(html, /Region eu-2, nested yes, list ADA, LINUS\./);
  t.regex(html, /<span class="pill" data-label="a">inside<\/span>/);
  t.regex(html, /<strong>LOUD!<\/strong>/);
  t.regex(html, /<strong>HI!<\/strong>/);
  t.regex(html, /<div style="margin-top:4px;color:red" class="box">boxed<\/div>/);
  t.notRegex(html, /comment/);
  t.regex(html, /Unknown {2}and {2}stay empty\./);
  t.true(
    result.report.warnings.some((w) => /notDefined/.test(w.message)),
    'unevaluable expressions are reported',
  );
});

test('snippet imports: named exports, .jsx components, legacy <Snippet>, and missing imports are reported not fatal', async (t) => {
  const { out, result } = await renderFiles(t, {
    'docs.json': JSON.stringify({ name: 'X', navigation: { pages: ['index'] } }),
    'index.mdx': [
      "import { greeting, Box } from '/snippets/vars.mdx';",
      "import { Badge2 } from '/snippets/comp.jsx';",
      "import Gone from '/snippets/gone.jsx';",
      '',
      '# Title',
      '',
      '{greeting}',
      '',
      '<Box>boxed text</Box>',
      '',
      '<Badge2 tone="ok" />',
      '',
      '<Snippet file="legacy.mdx" />',
      '',
      '<Gone>fallback child</Gone>',
      '',
    ].join('\n'),
    'snippets/vars.mdx':
      'export const greeting = \'Hello from vars\';\nexport const Box = ({ children }) => <section className="box">{children}</section>;\n',
    'snippets/comp.jsx': 'const label = (t) => `tone:${t}`;\nexport const Badge2 = ({ tone }) => <em>{label(tone)}</em>;\n',
    'snippets/legacy.mdx': 'Legacy snippet body.\n',
  });
  const html = await content(out, 'index.html');
  t.regex(html, /Hello from vars/);
  t.regex(html, /<section class="box">.*boxed text.*<\/section>/s);
  t.regex(html, /<em>tone:ok<\/em>/);
  t.regex(html, /Legacy snippet body\./);
  t.regex(html, /fallback child/);
  t.is(result.failed, 0);
  t.true(result.report.warnings.some((w) => /imported file not found: \/snippets\/gone\.jsx/.test(w.message)));
});

test('prose lines that start with "export"/"import" are text, not a parse failure', async (t) => {
  const { out, result } = await renderFiles(t, {
    'docs.json': JSON.stringify({ name: 'X', navigation: { pages: ['index'] } }),
    'index.mdx': '# T\n\nexport your data, then import it elsewhere.\n\nimport works the same way.\n',
  });
  t.is(result.failed, 0);
  const html = await content(out, 'index.html');
  t.regex(html, /export your data, then import it elsewhere\./);
  t.regex(html, /import works the same way\./);
});

test('a recursive component is stopped by the evaluation budget instead of hanging', async (t) => {
  const { result } = await renderFiles(t, {
    'docs.json': JSON.stringify({ name: 'X', navigation: { pages: ['index'] } }),
    'index.mdx': 'export const Loop = () => <Loop />;\n\n# T\n\n<Loop />\n',
  });
  t.is(result.failed, 0);
  t.true(result.report.warnings.some((w) => /depth|budget/.test(w.message)));
});

test('link reference definitions and footnotes resolve wherever they are defined, the first definition of a label wins', async (t) => {
  const { out } = await renderFiles(t, {
    'docs.json': JSON.stringify({ name: 'X', navigation: { pages: ['index', 'plain'] } }),
    'index.mdx': [
      '---',
      'title: X',
      '---',
      '',
      'See [the guide][Guide], [nested][inner] and [quoted][q], with a note.[^n]',
      '',
      '<Note>',
      '[inner]: https://example.com/inner',
      '</Note>',
      '',
      '> [q]: https://example.com/quoted',
      '',
      '[guide]: https://example.com/first',
      '',
      '[GUIDE]: https://example.com/second',
      '',
      '[^n]: The footnote text.',
      '',
    ].join('\n'),
    'plain.md': ['# Plain', '', 'A [reference] in plain Markdown.', '', '[reference]: https://example.com/md', ''].join('\n'),
  });
  const html = await content(out, 'index.html');
  t.regex(
    html,
    /<a href="https:\/\/example\.com\/first"[^>]*>the guide<\/a>/,
    'labels match case-insensitively and the first definition wins',
  );
  t.notRegex(html, /example\.com\/second/);
  t.regex(html, /<a href="https:\/\/example\.com\/inner"[^>]*>nested<\/a>/, 'a definition inside a component counts');
  t.regex(html, /<a href="https:\/\/example\.com\/quoted"[^>]*>quoted<\/a>/, 'a definition inside a block quote counts');
  t.regex(html, /<sup><a href="#user-content-fn-n"[^>]*>1<\/a><\/sup>/, 'the footnote call links to its note');
  t.regex(html, /<section[^>]*data-footnotes[^>]*>[\s\S]*The footnote text\./, 'the footnote section is rendered');
  t.regex(await content(out, 'plain.html'), /<a href="https:\/\/example\.com\/md"[^>]*>reference<\/a>/);
});
