import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import remarkGfm from 'remark-gfm';
import remarkFrontmatter from 'remark-frontmatter';
import remarkMath from 'remark-math';
import type { Root } from 'mdast';
import { mdxJsx } from 'micromark-extension-mdx-jsx';
import { mdxExpression } from 'micromark-extension-mdx-expression';
import { mdxMd } from 'micromark-extension-mdx-md';
import { mdxJsxFromMarkdown } from 'mdast-util-mdx-jsx';
import { mdxExpressionFromMarkdown } from 'mdast-util-mdx-expression';
import type { Processor } from 'unified';

/** `.md` is CommonMark + GFM with raw HTML (no JSX, no expressions); `.mdx` is MDX 3. */
export type SourceKind = 'md' | 'mdx';

/**
 * MDX without acorn: JSX and `{expressions}` are recognised but expressions stay source text,
 * parsed later only if they are evaluated. Used for pages without import/export statements,
 * which is most of them; parsing is markedly faster without building estree for every brace.
 */
function remarkMdxWithoutAcorn(this: Processor) {
  const data = this.data() as { micromarkExtensions?: unknown[]; fromMarkdownExtensions?: unknown[] };
  (data.micromarkExtensions ??= []).push(mdxExpression(), mdxJsx(), mdxMd());
  (data.fromMarkdownExtensions ??= []).push(mdxExpressionFromMarkdown(), mdxJsxFromMarkdown());
}

const mdProcessors = [false, true].map((math) => {
  const p = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']);
  return math ? p.use(remarkMath) : p;
});
const mdxProcessors = [false, true].flatMap((esm) => [false, true].map((math) => {
  const p = unified().use(remarkParse).use(esm ? remarkMdx : remarkMdxWithoutAcorn).use(remarkGfm).use(remarkFrontmatter, ['yaml']);
  return math ? p.use(remarkMath) : p;
}));
/** Math syntax needs a `$`; ES module statements need a line starting with import/export. */
const pick = (text: string, esm: boolean) => (esm ? 2 : 0) + (text.includes('$') ? 1 : 0);
const ESM_LINE = /^(?:import|export)\b/m;

/** Parses page or snippet text to mdast. Throws (with position) on MDX syntax errors. */
export function parseSource(text: string, kind: SourceKind): Root {
  const prepared = normalizeSource(text, kind);
  if (kind === 'md') return mdProcessors[prepared.includes('$') ? 1 : 0].parse(prepared);
  let current = prepared;
  for (let attempt = 0; ; attempt++) {
    try {
      return mdxProcessors[pick(current, ESM_LINE.test(current))].parse(current);
    } catch (err) {
      const fixed = attempt < MAX_PROSE_FIXES ? proseNotEsm(current, err) : null;
      if (fixed === null) throw err;
      current = fixed;
    }
  }
}

const MAX_PROSE_FIXES = 50;

/**
 * A paragraph that happens to start with the word "import" or "export" is read by MDX as an
 * ES module statement and fails to parse. When acorn rejects such a line, its first letter is
 * written as a character reference (`&#101;xport`) so it parses as the prose it is. Returns
 * null when the error is anything else.
 */
function proseNotEsm(text: string, err: unknown): string | null {
  const e = err as { source?: string; ruleId?: string; line?: number };
  if (e.source !== 'micromark-extension-mdxjs-esm' || typeof e.line !== 'number') return null;
  const lines = text.split('\n');
  // The error points inside the statement; walk up to the line that starts it.
  for (let i = Math.min(e.line - 1, lines.length - 1); i >= 0 && i >= e.line - 200; i--) {
    const m = /^(import|export)\b/.exec(lines[i]);
    if (m) {
      lines[i] = `&#${lines[i].charCodeAt(0)};${lines[i].slice(1)}`;
      return lines.join('\n');
    }
    if (lines[i].trim() === '') break;
  }
  return null;
}

/** The exact text the parser sees (BOM dropped, LF line ends, heading ids escaped); idempotent, so node offsets index into it. */
export function normalizeSource(text: string, kind: SourceKind): string {
  const clean = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  return kind === 'mdx' ? escapeHeadingIds(clean) : clean;
}

const HEADING_ID = /^( {0,3}#{1,6}[ \t].*?)[ \t]*\{#([A-Za-z0-9_:.-]+)\}[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Mintlify's `## Title {#custom-id}` is not valid MDX (`{…}` is an expression), so the braces
 * are escaped before parsing and the heading handler reads the id back from the text.
 */
export function escapeHeadingIds(text: string): string {
  if (!text.includes('{#')) return text;
  const lines = text.split('\n');
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const f = FENCE.exec(lines[i]);
    if (f) {
      if (fence === null) fence = f[1];
      else if (f[1][0] === fence[0] && f[1].length >= fence.length && lines[i].trim() === f[1]) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const m = HEADING_ID.exec(lines[i]);
    if (m) lines[i] = `${m[1]} \\{#${m[2]}\\}`;
  }
  return lines.join('\n');
}

/** The page's YAML frontmatter block, raw (parsed separately so the navigation pre-pass can skip full parsing). */
export function frontmatterText(text: string): string | null {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? m[1] : null;
}
