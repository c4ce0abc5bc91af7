import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundledLanguagesInfo, createHighlighter, createOnigurumaEngine, type BundledLanguage } from 'shiki';
import { createShikiTokenizer, FONT_STYLE_SHIFT, HIGHLIGHT_THEME, TOKEN_KINDS } from '../../src/render/code/createShikiTokenizer.js';
import type { CodeToken } from '../../src/render/code/TokenCache.js';
import { sharedPath } from '../helpers/sharedDir.js';

const KNOWN = new Map<string, string>();
for (const info of bundledLanguagesInfo) for (const name of [info.id, ...(info.aliases ?? [])]) KNOWN.set(name, info.id);

/** Every distinct fenced block (with a language shiki knows) in a corpus, in file order. */
async function fencedBlocks(dir: string): Promise<[string, string][]> {
  const files = (await readdir(dir, { recursive: true })).filter((f) => /\.mdx?$/.test(f) && !f.includes('node_modules')).sort();
  const seen = new Set<string>();
  const blocks: [string, string][] = [];
  for (const file of files) {
    const text = await readFile(join(dir, file), 'utf8');
    for (const m of text.matchAll(/^[ \t]*```([\w+#-]*)[^\n]*\n([\s\S]*?)\n[ \t]*```/gm)) {
      const id = KNOWN.get(m[1]!.toLowerCase());
      if (!id || seen.has(`${id}\0${m[2]}`)) continue;
      seen.add(`${id}\0${m[2]}`);
      blocks.push([id, m[2]!]);
    }
  }
  return blocks;
}

/**
 * The oracle: shiki's own codeToTokensBase, on a separate highlighter, turned into our token
 * format the way the renderer did before it tokenized line by line.
 */
async function shikiReference(langs: string[]) {
  const kinds = new Map<string, number>(TOKEN_KINDS.map((k, i) => [`var(--ec-token-${k})`, i]));
  const highlighter = await createHighlighter({
    themes: [HIGHLIGHT_THEME],
    langs: langs as BundledLanguage[],
    engine: createOnigurumaEngine(import('shiki/wasm')),
  });
  return (code: string, lang: string): CodeToken[][] =>
    highlighter
      .codeToTokensBase(code, { lang: lang as BundledLanguage, theme: HIGHLIGHT_THEME, tokenizeMaxLineLength: 5000, tokenizeTimeLimit: 0 })
      .map((line) => {
        const out: CodeToken[] = [];
        for (const t of line) {
          const kind = t.color ? kinds.get(t.color) : undefined;
          const style = t.fontStyle && t.fontStyle > 0 ? t.fontStyle : 0;
          const last = out[out.length - 1];
          if (kind === undefined && style === 0) {
            if (typeof last === 'string') out[out.length - 1] = last + t.content;
            else out.push(t.content);
          } else out.push([t.content, (kind ?? 0xffff) + style * (1 << FONT_STYLE_SHIFT)]);
        }
        return out;
      });
}

test('every code block of the corpora tokenizes exactly as shiki tokenizes it, though most repeated lines come from memory', async (t) => {
  t.timeout(120_000);
  const blocks = [...(await fencedBlocks(sharedPath('corpora/mcp'))), ...(await fencedBlocks(sharedPath('corpora/unstructured')))];
  const langs = [...new Set(blocks.map(([id]) => id))];
  t.true(blocks.length > 1500 && langs.length > 20, `${blocks.length} blocks in ${langs.length} languages`);
  const tokenizer = await createShikiTokenizer(langs);
  const reference = await shikiReference(langs);
  let lines = 0;
  const differ: string[] = [];
  for (const [id, code] of blocks) {
    lines += code.split('\n').length;
    const ours = tokenizer.tokenize(code, id);
    if (JSON.stringify(ours) !== JSON.stringify(reference(code, id))) differ.push(`${id}: ${code.slice(0, 60)}`);
  }
  t.deepEqual(differ.slice(0, 5), [], `${differ.length} blocks differ`);
  const share = tokenizer.reusedLines() / lines;
  t.log(`${blocks.length} blocks, ${lines} lines, ${tokenizer.reusedLines()} lines from memory (${(share * 100).toFixed(0)}%)`);
  t.true(share > 0.3, 'repeated lines are reused');
});

test('the same line in a different grammar state is tokenized again, not reused', async (t) => {
  const tokenizer = await createShikiTokenizer(['typescript']);
  const outside = tokenizer.tokenize('const answer = 42;', 'typescript');
  const inside = tokenizer.tokenize('/*\nconst answer = 42;\n*/', 'typescript');
  const second = tokenizer.tokenize('let x = 1;\nconst answer = 42;', 'typescript');
  const again = tokenizer.tokenize('let y = 2;\nconst answer = 42;', 'typescript');
  const kindOf = (tokens: CodeToken[]) => tokens.map((tok) => (typeof tok === 'string' ? 'plain' : TOKEN_KINDS[tok[1] & 0xffff]));
  t.true(kindOf(outside[0]!).includes('keyword'), 'code outside a comment has keywords');
  t.deepEqual(kindOf(inside[1]!), ['comment'], 'the same text inside a block comment is all comment');
  t.deepEqual(second[1], outside[0], 'after a finished statement it tokenizes as on a first line');
  t.is(again[1], second[1], 'after another finished statement it is the remembered line itself');
});
