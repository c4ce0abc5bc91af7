import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Root } from 'mdast';
import { normalizeSource, parseWithMicromark, type SourceKind } from '../../src/render/mdx/parseSource.js';
import { isDeepStrictEqual } from 'node:util';
import { fastParse, fastParseOrBail } from '../../src/render/mdx/fastParse/fastParse.js';

const CORPORA = ['starter', 'mcp', 'unstructured'].map((c) => join('/work/shared/corpora', c));
const SAMPLE = join(import.meta.dirname, '../../examples/sample-docs');

function pagesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.mdx?$/.test(entry.name)) out.push(join(entry.parentPath, entry.name));
  }
  return out.sort();
}

/** A copy without `position`, except on top-level yaml nodes, whose offsets markdownCopy relies on. */
function withoutPositions(node: unknown, topLevel = false): unknown {
  if (Array.isArray(node)) return node.map((n) => withoutPositions(n, topLevel));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'position' && !(topLevel && (node as { type?: string }).type === 'yaml')) continue;
    out[key] = withoutPositions(value, (node as { type?: string }).type === 'root' && key === 'children');
  }
  return out;
}

interface Checked { total: number; fast: number; mismatches: string[]; reasons: Map<string, number>; slow: string[] }

/** Runs both parsers on every page and records where the fast path answers and whether it agrees. */
function check(files: string[]): Checked {
  const result: Checked = { total: 0, fast: 0, mismatches: [], reasons: new Map(), slow: [] };
  for (const file of files) {
    const kind: SourceKind = file.endsWith('.mdx') ? 'mdx' : 'md';
    const text = normalizeSource(readFileSync(file, 'utf8'), kind);
    result.total++;
    const { root, reason } = fastParseOrBail(text, kind);
    if (!root) {
      result.reasons.set(reason!, (result.reasons.get(reason!) ?? 0) + 1);
      result.slow.push(file);
      continue;
    }
    result.fast++;
    let expected: Root | null = null;
    try { expected = parseWithMicromark(text, kind); } catch { /* micromark rejects it: the fast path must not accept it */ }
    if (!expected || !isDeepStrictEqual(withoutPositions(root), withoutPositions(expected))) result.mismatches.push(file);
  }
  return result;
}

const synthetic = mkdtempSync(join(tmpdir(), 'enclave-fastparse-'));
test.after.always(() => rmSync(synthetic, { recursive: true, force: true }));

test('every synthetic page takes the fast path and matches micromark', (t) => {
  execFileSync(process.execPath, ['/work/shared/bin/gen-corpus.mjs', synthetic, '300']);
  const files = pagesUnder(synthetic);
  t.is(files.length, 300);
  const r = check(files);
  t.deepEqual(r.mismatches, []);
  t.deepEqual([...r.reasons], [], 'synthetic pages that fell back, by reason');
  t.is(r.fast, 300);
});

/** Pages per corpus that must take the fast path: a little below what it reaches, so losing coverage fails. */
const MIN_FAST: Record<string, number> = { starter: 17, mcp: 288, unstructured: 500, 'sample-docs': 14 };

for (const dir of [...CORPORA, SAMPLE]) {
  test(`fast path agrees with micromark on ${dir}`, (t) => {
    const r = check(pagesUnder(dir));
    t.true(r.total > 0);
    t.deepEqual(r.mismatches, []);
    const reasons = [...r.reasons].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}: ${v}`).join(', ');
    t.log(`${r.fast}/${r.total} pages (${((100 * r.fast) / r.total).toFixed(1)}%) on the fast path; fallbacks: ${reasons || 'none'}`);
    const min = MIN_FAST[basename(dir)];
    t.true(r.fast >= min, `${r.fast} fast-path pages, expected at least ${min}`);
  });
}

/** Cases the fast path must answer, each equal to micromark's tree. */
const HANDLED: Array<[SourceKind, string]> = [
  ['mdx', '---\ntitle: x\n---\n\n# Hi'],
  ['mdx', '---\n---\nx'],
  ['mdx', 'a \n  b\nc '],
  ['mdx', '` a ` and `  ` and ``x`y`` and a lone ` tick'],
  ['mdx', '*a [b* c](d)'],
  ['mdx', '[a *b](c) d*'],
  ['mdx', '**a *b* c** and _d_ and snake_case_word and 2 * 3'],
  ['mdx', '[![alt](/i.png "t")](/x)'],
  ['mdx', '   ```js  a b  \n  x\n    y\n   ```'],
  ['mdx', '```js \nx\n```\n\n~~~\ny\n~~~'],
  ['mdx', '       ```\n        x\n     ```'],
  ['mdx', '| a | b |\n|---|:-:|\n| 1 |\n| 1 | 2 | 3 |'],
  ['mdx', '<A>\n| a |\n|---|\n| b |\n</A>'],
  ['mdx', '<Card\n  title="x"\n  n={1}\n>\n  hi\n</Card>'],
  ['mdx', 'text\n<Note>\nx\n</Note>'],
  ['mdx', 'a\n{x}\n\n{ y }'],
  ['mdx', '<Foo bar baz = "x" q={ a } />'],
  ['mdx', 'x <b>y</b> and <i a="1"/>'],
  ['mdx', 'x\n\n---\n\ny\n\n* * *'],
  ['mdx', 'export is a word here\n\ntext'],
  ['md', '# T\n\nplain *md* with {braces}'],
  // Lists: tight and loose, kinds, starts, nesting, lazy lines, blocks inside items.
  ['mdx', '- a\n- b\n\n- c'],
  ['mdx', '- a\n\n  b\n- c'],
  ['mdx', '* a\n+ b\n- c'],
  ['mdx', '007. a\n8. b\n1) c'],
  ['mdx', '1. a\n   - b\n     lazy\n c\n2. d'],
  ['mdx', '- a\n  - b\n\n- c'],
  ['mdx', '- a\n  - b\n\n  c'],
  ['mdx', '- a\nlazy *text*\n\nafter'],
  ['mdx', 'para\n- interrupts\n\n1. also'],
  ['mdx', '- a\n\n  ```js\n  x\n\n   y\n  ```\n- b'],
  ['mdx', '<Steps>\n  - a\n  - <Card title="x">\n      in card\n    </Card>\n</Steps>'],
  ['mdx', '- a\n# heading\n- b\n```\ncode\n```'],
  ['mdx', '-    four spaces\n     continue'],
  ['mdx', '      - deep in MDX\n      - b'],
  ['mdx', '- * * *\n- - a'],
  ['mdx', '- | a |\n  |---|\n  | b |'],
  ['md', '- a\n\n  b\n\n* c'],
  // Block quotes: prefixes with and without a space, lazy lines, blocks and lists inside, in lists.
  ['mdx', '> a\nlazy\n> b\n\n> - x\n>   y\n\n> # h\n> ```\n> c\n> ```'],
  ['mdx', 'p\n> q\n- r\n> s\n\n>no space\n>  two\n>\n> after an empty line'],
  ['mdx', '- a\n  > q\n  lazy\n- b'],
  // Numeric character references, including the ones decoded to U+FFFD.
  ['mdx', 'a &#65;&#x1F600; &#0; &#xD800; &#128; &#xFFFF; &#9999999; &#; & b &#12345678;'],
  ['mdx', '**&#42;x&#42;** `&#65;` [&#65;](/u)'],
  // A closing brace with no opening one is text (TypeDoc output prints `}` between spans).
  ['mdx', 'a } b <span>}</span> x }} y\n\n}\n'],
  // Literal attribute values decode references as mdast-util-mdx-jsx does (terminated ones only).
  ['mdx', '<Card title="Tom &amp; Jerry &#65;&#x42; &notaname; &copy &quot;q&quot;" href=\'/a?b=1&amp;c=2\'>\nx\n</Card>\n'],
  // Named references decode only when HTML knows the name; anything else stays literal text.
  ['mdx', 'a &amp; b &quot;c&quot; &nbsp;&mdash; &notaname; &AMP &amp [&lt;x&gt;](/u)'],
  ['md', 'Tom &amp; Jerry &copy; 2026 &unknownentity; &'],
  // Runs that can both open and close.
  ['mdx', '**[Tools](/t)**: text and **a (b)**. **c**'],
  ['mdx', 'a*b*c and a.*b*.c and "*x*"'],
  // Backslash escapes: punctuation becomes text, other backslashes stay.
  ['mdx', 'a\\*b\\* \\[x] \\{y\\} \\<b> \\a `c\\` \\\\ end\\'],
  ['mdx', '\\[not]: a definition\n\n*a\\*'],
  // Brackets that do not make a link are text, and their delimiters pair across them.
  ['mdx', '[a] and [b][c] and ![d] and [e] (f) and *g [h* i] and [unclosed *j* and ]'],
  ['mdx', '[a [b] c](/u)'],
  // A link inside brackets leaves the outer brackets as text, even with a resource after them.
  ['mdx', '[a [b](/u)](/v) and [[RFC](/r)] and [x [y](/v) *z](/w)*'],
  // Several JSX flow tags on one line.
  ['mdx', '<A><B />\n</A>\n<iframe\n  src="x"\n></iframe>'],
  // Tags followed by text on their line are a paragraph with inline JSX.
  ['mdx', '<A></A> text\n\n<Icon /><Icon /> more'],
  // Code spans keep line endings; one space or line ending comes off each side (not other spaces).
  ['mdx', 'a `b\nc` d ` \u00a0 ` and `\nx\n` and ` y\n`'],
  // GFM autolink literals in their plain shape, the trail left out; none inside link labels.
  ['mdx', 'see https://example.com. and www.x.org/a?b=1, or HTTP://LOCALHOST:3000/x;\nhttps://a.b/c:d?'],
  ['mdx', '[https://x.com](https://x.com) and [a] https://z.io and ![www.y.com](/i.png)'],
  ['mdx', 'the protocol (https://) and https:// alone, https:x and https://;x'],
  ['md', '| https://x.com | b |\n|---|---|\n| c www.y.z | d |'],
  // `@` with nothing before it that an e-mail address could start with.
  ['mdx', 'ping @user and `a`@b.co and (@scope/pkg)'],
];

test('the fast path reproduces micromark on tricky handled cases', (t) => {
  for (const [kind, text] of HANDLED) {
    const fast = fastParse(text, kind);
    t.not(fast, null, text);
    t.deepEqual(withoutPositions(fast), withoutPositions(parseWithMicromark(text, kind)), text);
  }
});

/** Cases the fast path must leave to micromark: unimplemented constructs and MDX errors. */
const BAILS: Array<[SourceKind, string]> = [
  ['mdx', 'a  \nb'],
  ['mdx', 'x https://x_y.com'],
  ['mdx', '(https://x.com)'],
  ['mdx', '**https://x.com**'],
  ['mdx', 'https://x.com/a&b'],
  ['mdx', '[a https://x.com'],
  ['mdx', '[a] b_ https\\://x.com'],
  ['mdx', 'www.x.com at the start'],
  ['mdx', 'mail me@example.com'],
  ['mdx', '~~gone~~'],
  ['mdx', 'cost $5'],
  ['mdx', 'note[^1]'],
  ['mdx', 'a\n---'],
  ['mdx', 'a\n| b |\n|---|'],
  ['mdx', '-\n  empty first line'],
  ['mdx', '- [ ] task'],
  ['mdx', '-     wide gap'],
  ['mdx', '* 2. nested list that cannot interrupt'],
  ['mdx', '- a\n`lazy or not`'],
  ['mdx', '- a\n2. lazy text or list'],
  ['mdx', 'a\n2. b'],
  ['mdx', '- ```\n  x\nlazy'],
  ['md', '    - indented four'],
  ['mdx', '- import x from "y"'],
  // A reference inside a link title.
  ['mdx', '[x](/u "t&amp;t")'],
  ['mdx', 'a_&#64;b.co'],
  ['mdx', 'x@y.co'],
  ['mdx', 'a\\\nb'],
  ['mdx', 'a `b \nc`'],
  ['mdx', 'a `b\n   c`'],
  ['mdx', '- a `b\n    c`'],
  ['mdx', '| a \\| b |\n|---|'],
  ['mdx', '![a [b]](/u)'],
  ['mdx', '<A>{x}</A>'],
  ['md', '| a |\n    |---|'],
  ['md', '| a |\n|---|\n    | b |'],
  ['mdx', '> 2. a quote opening a list that could not interrupt'],
  ['mdx', '    > indented quote'],
  ['mdx', '[ref]: /x'],
  ['mdx', '***strong em***'],
  ['mdx', '<b>*a</b> b*'],
  ['mdx', '<A>\n\ntext'],
  ['mdx', '<A></B>'],
  ['mdx', 'a < b'],
  ['mdx', '<A x={\n  1\n} />'],
  ['mdx', 'import X from "./x.mdx"\n\n<X />'],
  ['mdx', '```js\nunclosed'],
  ['mdx', '\tindented'],
  ['md', '<div>html</div>'],
  ['md', '    indented code'],
];

test('the fast path bails on what it does not reproduce', (t) => {
  for (const [kind, text] of BAILS) t.is(fastParse(text, kind), null, text);
});

test('frontmatter keeps micromark\'s offsets', (t) => {
  const text = '---\ntitle: "a"\nx: 1\n---\n\nbody';
  const fast = fastParse(text, 'mdx')!;
  const slow = parseWithMicromark(text, 'mdx');
  t.deepEqual(fast.children[0].position, slow.children[0].position);
  t.is(fast.children[0].position!.end.offset, 23);
});
