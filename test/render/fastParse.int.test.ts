import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Root } from 'mdast';
import { normalizeSource, parseWithMicromark, type SourceKind } from '../../src/render/mdx/parseSource.js';
import { fastParse, fastParseOrBail } from '../../src/render/mdx/fastParse/fastParse.js';
import { sharedPath } from '../helpers/sharedDir.js';

const CORPORA = ['starter', 'mcp', 'unstructured'].map((c) => sharedPath('corpora', c));
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

/**
 * Whether two trees are equal once `position` is left out as withoutPositions leaves it out:
 * isDeepStrictEqual(withoutPositions(a), withoutPositions(b)) without copying either tree, which
 * on the corpora's large pages made much of the comparison's garbage.
 */
function sameWithoutPositions(a: unknown, b: unknown, topLevel = false): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return Object.is(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameWithoutPositions(item, b[i], topLevel));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const kept = (node: Record<string, unknown>) =>
    Object.keys(node).filter((key) => key !== 'position' || (topLevel && node.type === 'yaml'));
  const keys = kept(left);
  const otherKeys = new Set(kept(right));
  if (keys.length !== otherKeys.size) return false;
  return keys.every((key) => otherKeys.has(key) && sameWithoutPositions(left[key], right[key], left.type === 'root' && key === 'children'));
}

interface Checked {
  total: number;
  fast: number;
  mismatches: string[];
  reasons: Map<string, number>;
  slow: string[];
}

/** Runs both parsers on every page and records where the fast path answers and whether it agrees. */
function check(files: string[]): Checked {
  const result: Checked = { total: 0, fast: 0, mismatches: [], reasons: new Map(), slow: [] };
  for (const file of files) {
    const kind: SourceKind = file.endsWith('.mdx') ? 'mdx' : 'md';
    const text = normalizeSource(readFileSync(file, 'utf8'), kind);
    result.total++;
    const { reason, matches } = verdict(text, kind);
    if (reason) {
      result.reasons.set(reason, (result.reasons.get(reason) ?? 0) + 1);
      result.slow.push(file);
      continue;
    }
    result.fast++;
    if (!matches) result.mismatches.push(file);
  }
  return result;
}

/**
 * Verdicts by page text: the corpora hold the same page under several versions (12 copies in
 * mcp, among them 85 KB guides), and both parsers give one text one answer, so each distinct
 * text is parsed once per file; every copy is still counted under its own path.
 */
const verdicts = new Map<string, { reason: string | null; matches: boolean }>();

function verdict(text: string, kind: SourceKind): { reason: string | null; matches: boolean } {
  const key = `${kind}\0${text}`;
  let found = verdicts.get(key);
  if (!found) {
    const { root, reason } = fastParseOrBail(text, kind);
    found = root ? { reason: null, matches: matchesMicromark(text, kind, root) } : { reason: reason!, matches: false };
    verdicts.set(key, found);
  }
  return found;
}

/** Whether `fast`, the fast path's tree for `text`, is micromark's (which must accept the text). */
function matchesMicromark(text: string, kind: SourceKind, fast: Root): boolean {
  let expected: Root | null = null;
  try {
    expected = parseWithMicromark(text, kind);
  } catch {
    /* micromark rejects it: the fast path must not accept it */
  }
  return expected !== null && sameWithoutPositions(fast, expected);
}

const synthetic = mkdtempSync(join(tmpdir(), 'enclave-fastparse-'));
test.after.always(() => rmSync(synthetic, { recursive: true, force: true }));

test('every synthetic page takes the fast path and matches micromark', (t) => {
  execFileSync(process.execPath, [sharedPath('bin', 'gen-corpus.mjs'), synthetic, '300']);
  const files = pagesUnder(synthetic);
  t.is(files.length, 300);
  const r = check(files);
  t.deepEqual(r.mismatches, []);
  t.deepEqual([...r.reasons], [], 'synthetic pages that fell back, by reason');
  t.is(r.fast, 300);
});

/** Pages per corpus that must take the fast path: a little below what it reaches, so losing coverage fails. */
const MIN_FAST: Record<string, number> = { starter: 17, mcp: 298, unstructured: 500, 'sample-docs': 14 };

for (const dir of [...CORPORA, SAMPLE]) {
  test(`fast path agrees with micromark on ${dir}`, (t) => {
    const r = check(pagesUnder(dir));
    t.true(r.total > 0);
    t.deepEqual(r.mismatches, []);
    const reasons = [...r.reasons]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
    t.log(`${r.fast}/${r.total} pages (${((100 * r.fast) / r.total).toFixed(1)}%) on the fast path; fallbacks: ${reasons || 'none'}`);
    const min = MIN_FAST[basename(dir)];
    t.true(r.fast >= min, `${r.fast} fast-path pages, expected at least ${min}`);
  });
}

// micromark takes seconds over each of the mcp corpus's TypeDoc schema pages (277-709 KB); their
// URLs and e-mail addresses between `&quot;` references must not push them off the fast path.
test('the TypeDoc schema pages take the fast path', (t) => {
  const schemas = pagesUnder(CORPORA[1]).filter((file) => basename(file) === 'schema.mdx');
  t.is(schemas.length, 4);
  for (const file of schemas) t.is(fastParseOrBail(normalizeSource(readFileSync(file, 'utf8'), 'mdx'), 'mdx').reason, null, file);
});

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
  // TypeDoc's code samples: a URL after a decoded `&quot;` ends before the closing `&quot;` (an
  // `&name;` trail), while numeric references inside it stay raw in the link.
  [
    'mdx',
    '<span class="hl-2">&quot;https://example.com/icon.png&quot;</span><span>,</span> and &quot;https://mcp.example.com/ui/set&#x5F;api&#x5F;key&quot; and &quot;http://json-schema.org/draft-07/schema#&quot;',
  ],
  // A URL right after a JSX tag (a `>` may precede a protocol).
  ['mdx', 'RFC-5424: <a href="https://x.org/rfc#section-6.2.1">https://x.org/rfc#section-6.2.1</a>'],
  // Trails: `&name;` only at the end, runs of punctuation, `]` before `(`, `[`, a space or the end, and `<`.
  ['mdx', 'https://x.com/a&b https://x.com/?a=1&amp;b=2 https://x.com/a&quot;b&quot;. https://x.com/a&amp;!'],
  ['mdx', 'https://x.com/a]b https://x.com/c](d) https://x.com/e]. https://x.com/f]x https://x.com/a<b>x</b>'],
  // Parentheses: a `)` stays in the path only while it closes a `(` of the path.
  ['mdx', '(https://x.com) https://x.com/f(x)) and (see https://x.com/a(b)c)'],
  // Inside a literal nothing is syntax; around it, delimiters pair as usual.
  ['mdx', 'https://x.com/{id}/*a*/_b_/`c`/\\_d and **https://x.com** _https://x.com_ *see https://x.com/a*b*'],
  // Domains: underscores allowed before the last two segments, non-ASCII, a dot that does not end the URL.
  ['mdx', 'https://a_b.x.y.com https://例え.jp/パス https://x.com/😀 https://x.com.https://y.com/ https://x.com/a\u00a0b'],
  // www.: at the start of inline content, after a space, `(`, `_` or `]`; `www.` alone links `www`.
  ['mdx', 'www.x.com and a www. b (www.x.com) _www.y.com_ [a]www.z.com'],
  ['mdx', '# www.x.com\n\n- www.y.com\n\n> www.z.com'],
  ['md', '| www.x.com | b |\n|---|---|\n|https://y.com.|www.z.com|'],
  // E-mail addresses, which win over www. at the same start.
  ['mdx', '&quot;octocat@github.com&quot;, mail me@example.com, x@y.co. and www.x@y.com (www.x@y.com) a@b.c-d.io xwww.y@z.com'],
  ['md', 'https://x.com/a b@c.com&quot;d@e.com'],
  // micromark links the address after `mailto:`, leaving no whole `mailto:` link for the pass over
  // text nodes, which cannot link text like `a@b` or `http://\<x>` either.
  ['mdx', 'mailto:a@b.co, a@b, a@b@c.com, ping@ and http://\\<x>/y'],
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
  ['mdx', '[a https://x.com'],
  ['mdx', '[a] b_ https\\://x.com'],
  ['mdx', '~~gone~~'],
  ['mdx', 'cost $5'],
  ['mdx', 'note[^1]'],
  ['mdx', 'a\n---'],
  // Setext underlines of two dashes (shorter than a thematic break), in a list item too.
  ['mdx', 'a\n--'],
  ['mdx', '- x\n  --'],
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
  // Literals that only mdast-util-gfm-autolink-literal's later pass over the text nodes would link
  // or decline (micromark's rules for the character before differ from that pass's).
  ['mdx', 'a.www.x.com'],
  ['mdx', '&quot;www.x.com&quot;'],
  ['mdx', '<b>www.x.com</b>'],
  ['mdx', 'xhttps://x.com'],
  ['mdx', 'a/b@c.com'],
  ['mdx', 'a@b.c1'],
  // An e-mail address whose local part the fast path already read as syntax.
  ['mdx', '_a@b.co'],
  ['mdx', 'a_b@c.com'],
  ['mdx', '_x_www.y@z.com'],
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

/** A small seeded generator (mulberry32), so the random cases are the same on every run. */
function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

// The pieces autolink literals' rules look at: prefixes, the characters allowed before one, trail
// punctuation, references, brackets, parentheses, delimiters, e-mail local parts and domains.
const LITERAL_PIECES = [
  'https://',
  'HTTP://',
  'www.',
  'WwW.',
  'h',
  'w',
  'x',
  'e.com',
  'b.c',
  'a_b',
  '1',
  '.',
  '_',
  '_',
  '-',
  '+',
  '@',
  '@',
  '/',
  '&quot;',
  '&amp;',
  '&#x5F;',
  '&#64;',
  '&x',
  ';',
  '&',
  '(',
  ')',
  '[',
  ']',
  '](u)',
  '*',
  '!',
  '"',
  "'",
  ',',
  ':',
  '?',
  '<b>',
  '</b>',
  '{x}',
  '`',
  '\\',
  ' ',
  ' ',
  '\n',
  'é',
  '😀',
  '\u00a0',
  'mailto:',
];
// Each random text also goes where inline content starts: headings, quotes, list items, table cells, JSX.
const LITERAL_CONTEXTS: Array<(text: string) => string> = [
  (text) => text,
  (text) => `p ${text}`,
  (text) => `# ${text}`,
  (text) => `> ${text}`,
  (text) => `- ${text}`,
  (text) => `1. x\n   ${text}`,
  (text) => `<A>\n${text}\n</A>`,
  (text) => `| a | ${text.replace(/\n/g, ' ')} |\n|-|-|`,
];

test('the fast path agrees with micromark on random text around autolink literals', (t) => {
  const random = seededRandom(7);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const mismatches: string[] = [];
  let linked = 0;
  for (let n = 0; n < 8000; n++) {
    let text = '';
    for (let pieces = 1 + Math.floor(random() * 12); pieces > 0; pieces--) text += pick(LITERAL_PIECES);
    text = pick(LITERAL_CONTEXTS)(text);
    for (const kind of ['mdx', 'md'] as const) {
      const fast = fastParse(text, kind);
      if (!fast) continue;
      if (!matchesMicromark(text, kind, fast)) mismatches.push(`${kind} ${JSON.stringify(text)}`);
      else if (JSON.stringify(fast).includes('"link"')) linked++;
    }
  }
  t.deepEqual(mismatches, []);
  // Enough of the texts must hold literals the fast path links for the comparison to mean something.
  t.true(linked > 800, `${linked} answered texts with links`);
});

test("frontmatter keeps micromark's offsets", (t) => {
  const text = '---\ntitle: "a"\nx: 1\n---\n\nbody';
  const fast = fastParse(text, 'mdx')!;
  const slow = parseWithMicromark(text, 'mdx');
  t.deepEqual(fast.children[0].position, slow.children[0].position);
  t.is(fast.children[0].position!.end.offset, 23);
});
