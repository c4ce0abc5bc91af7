import test from 'ava';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { toHtml } from 'hast-util-to-html';
import { createCodeHighlighter } from '../../../src/render/code/createCodeHighlighter.js';
import { parseCodeMeta, parseLineRanges } from '../../../src/render/code/parseCodeMeta.js';
import { extractNotation } from '../../../src/render/code/extractNotation.js';
import { fakeRenderContext } from './fakeRenderContext.js';

const tempDir = () => mkdtemp(path.join(tmpdir(), 'enclave-code-'));

test('fence meta: title words, {ranges}, flags and key=value options', (t) => {
  const m = parseCodeMeta('Python Ingest v2 {1,3-5} lines wrap expandable icon="python" focus={2}');
  t.is(m.title, 'Python Ingest v2');
  t.deepEqual([...m.highlight], [1, 3, 4, 5]);
  t.deepEqual([...m.focus], [2]);
  t.true(m.lineNumbers && m.wrap && m.expandable);
  t.is(m.icon, 'python');
  t.is(parseCodeMeta('title="My file.ts" highlight={9}').title, 'My file.ts');
  t.deepEqual([...parseCodeMeta('server.json highlight={9}').highlight], [9]);
  t.is(parseCodeMeta('filename=app.ts').title, 'app.ts');
  t.is(parseCodeMeta(null).title, undefined);
  t.false(parseCodeMeta('config.ts').lineNumbers);
  t.is(parseLineRanges('{1-1000000}').size, 10_001, 'ranges are capped');
  t.deepEqual([...parseLineRanges('2,x,0,4-3')], [2]);
});

test('notation comments mark lines and disappear from the code', (t) => {
  const { code, marks } = extractNotation('a() // [!code ++]\nb() // [!code --]\n# [!code focus:2]\nc()\nd() <!-- [!code hl] -->\ne()');
  t.is(code, 'a()\nb()\nc()\nd()\ne()');
  t.deepEqual([...marks.add], [1]);
  t.deepEqual([...marks.remove], [2]);
  t.deepEqual([...marks.focus], [3, 4]);
  t.deepEqual([...marks.highlight], [4]);
});

test('a highlighted block is a figure with title, copy button, lang, token classes and marked lines', async (t) => {
  const h = await createCodeHighlighter({});
  const ctx = fakeRenderContext();
  const html = toHtml(
    h.highlight(
      { lang: 'ts', meta: 'config.ts {2} lines', value: 'const a = 1; // [!code ++]\nfunction f() {\n  return "s";\n}\n' },
      ctx,
    ) as never,
  );
  t.regex(html, /^<figure class="enclave-code has-title with-line-numbers" data-enclave-code="" data-lang="ts" data-filename="config.ts">/);
  t.regex(html, /<span class="enclave-code-title">config.ts<\/span><button type="button" class="enclave-copy" aria-label="Copy code"/);
  t.regex(html, /<span class="line diff add"><span class="ec-keyword">const<\/span>/);
  t.regex(html, /<span class="line highlighted"><span class="ec-keyword">function<\/span>/);
  t.regex(html, /<span class="ec-string-expression">"s"<\/span>/);
  t.notRegex(html, /\[!code/);
  t.is((html.match(/class="line/g) ?? []).length, 4, 'the trailing newline adds no empty line');
  t.deepEqual(ctx.warnings, []);
});

test('the diff language marks + and - lines; unknown and plain languages fall back to text', async (t) => {
  const h = await createCodeHighlighter({});
  const ctx = fakeRenderContext();
  const diff = toHtml(h.highlight({ lang: 'diff', meta: null, value: '--- a\n+++ b\n-old\n+new\n same' }, ctx) as never);
  t.regex(diff, /<span class="line diff remove"><span class="ec-deleted">-old<\/span><\/span>/);
  t.regex(diff, /<span class="line diff add"><span class="ec-inserted">\+new<\/span><\/span>/);
  t.regex(diff, /<span class="line"><span class="ec-deleted">--- a<\/span><\/span>/, 'file headers are not removals');
  const unknown = toHtml(h.highlight({ lang: 'klingon', meta: null, value: 'x <y>' }, ctx) as never);
  t.regex(unknown, /data-lang="klingon"[\s\S]*<span class="line">x &#x3C;y><\/span>/);
  t.regex(unknown, /class="enclave-code no-title"/);
  const none = toHtml(h.highlight({ lang: null, meta: null, value: 'plain' }, ctx) as never);
  t.regex(none, /data-lang="text"[\s\S]*<span class="line">plain<\/span>/);
  t.deepEqual(ctx.warnings, []);
});

test('common fence aliases are highlighted, and prepareLanguages adds grammars beyond the preloaded set', async (t) => {
  const h = await createCodeHighlighter({});
  const ctx = fakeRenderContext();
  for (const lang of ['sh', 'py', 'yml', 'js', 'golang', 'rs', 'env', 'jsonc', 'powershell']) {
    const html = toHtml(h.highlight({ lang, meta: null, value: 'x = "y" # z' }, ctx) as never);
    t.regex(html, /class="ec-/, lang);
  }
  const before = toHtml(h.highlight({ lang: 'zig', meta: null, value: 'const x = 1;' }, ctx) as never);
  t.notRegex(before, /class="ec-/);
  await h.prepareLanguages(['zig']);
  const after = toHtml(h.highlight({ lang: 'zig', meta: null, value: 'const x = 1;' }, ctx) as never);
  t.regex(after, /class="ec-keyword">const</);
});

test('mermaid fences become diagrams and request the mermaid asset', async (t) => {
  const h = await createCodeHighlighter({});
  const ctx = fakeRenderContext();
  const html = toHtml(h.highlight({ lang: 'mermaid', meta: null, value: 'graph TD; A-->B\n' }, ctx) as never);
  t.is(html, '<figure class="enclave-mermaid" data-enclave-mermaid=""><pre class="enclave-mermaid-source">graph TD; A-->B</pre></figure>');
  t.true(ctx.features.has('mermaid'));
});

test('expandable, wrap and icon options change the figure', async (t) => {
  const h = await createCodeHighlighter({});
  const ctx = fakeRenderContext();
  const long = Array.from({ length: 20 }, (_, i) => `line${i}`).join('\n');
  const html = toHtml(h.highlight({ lang: 'text', meta: 'expandable wrap icon="terminal" Output', value: long }, ctx) as never);
  t.regex(html, /class="enclave-code has-title wrap expandable collapsed"/);
  t.regex(
    html,
    /<button type="button" class="enclave-code-expand" aria-expanded="false" data-enclave-expand="">Show all 20 lines<\/button>/,
  );
  t.regex(html, /data-icon="terminal"/);
});

test('tokens are cached on disk: a second highlighter reads them instead of tokenizing', async (t) => {
  const dir = await tempDir();
  const input = { lang: 'python', meta: 'a.py', value: 'def hello():\n    return 42' };
  const first = await createCodeHighlighter({ cacheDir: dir });
  const html1 = toHtml(first.highlight(input, fakeRenderContext()) as never);
  t.deepEqual(first.stats(), { hits: 0, misses: 1, loadedFromDisk: 0 });
  // Writes are batched per event-loop turn; no explicit flush is needed.
  await new Promise((resolve) => setImmediate(resolve));
  const log = path.join(dir, 'highlight-tokens.jsonl');
  const lines = (await readFile(log, 'utf8')).trim().split('\n');
  t.is(lines.length, 1);

  const second = await createCodeHighlighter({ cacheDir: dir });
  t.is(second.stats().loadedFromDisk, 1);
  t.is(toHtml(second.highlight(input, fakeRenderContext()) as never), html1);
  t.deepEqual(second.stats(), { hits: 1, misses: 0, loadedFromDisk: 1 });

  // Prove the output comes from the disk entry: doctor it, and a fresh highlighter shows the doctored tokens.
  const entry = JSON.parse(lines[0]) as { k: string; t: unknown[][] };
  entry.t = [['FROM-CACHE']];
  await writeFile(log, `${JSON.stringify(entry)}\n`);
  const third = await createCodeHighlighter({ cacheDir: dir });
  t.regex(toHtml(third.highlight(input, fakeRenderContext()) as never), /<span class="line">FROM-CACHE<\/span>/);
  // Same code under another language is another entry.
  t.regex(toHtml(third.highlight({ ...input, lang: 'ruby' }, fakeRenderContext()) as never), /hello/);
  t.is(third.stats().misses, 1);
});

test('a corrupt or torn cache log is skipped, never fatal', async (t) => {
  const dir = await tempDir();
  const log = path.join(dir, 'highlight-tokens.jsonl');
  const input = { lang: 'json', meta: null, value: '{"a": 1}' };
  // The real key of this block, from a first highlighter's log.
  const first = await createCodeHighlighter({ cacheDir: dir });
  first.highlight(input, fakeRenderContext());
  first.flush();
  const key = (JSON.parse((await readFile(log, 'utf8')).trim()) as { k: string }).k;
  // Lines that are not entries are dropped on load; entries are checked when first used, and
  // this block's entry holds no tokens.
  await writeFile(log, `garbage\n{"k":"${key}","t":"not tokens"}\n{"k":"y","t":[[["a",99]]]}\n{"k":"trunc`);
  const h = await createCodeHighlighter({ cacheDir: dir });
  t.is(h.stats().loadedFromDisk, 2);
  const html = toHtml(h.highlight(input, fakeRenderContext()) as never);
  t.regex(html, /ec-/);
  t.deepEqual([h.stats().hits, h.stats().misses], [0, 1], 'the corrupt entry counts as a miss and is tokenized again');
  h.flush();
  // The new entry starts on its own line even though the file ended mid-line, so it survives,
  // and being later in the log it replaces the corrupt one.
  const again = await createCodeHighlighter({ cacheDir: dir });
  t.is(again.stats().loadedFromDisk, 3);
  t.regex(toHtml(again.highlight(input, fakeRenderContext()) as never), /ec-/);
  t.is(again.stats().hits, 1);
});
