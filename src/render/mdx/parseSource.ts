import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import remarkFrontmatter from 'remark-frontmatter';
import { mathFromMarkdown } from 'mdast-util-math';
import type { Root } from 'mdast';
import { mdxJsx } from 'micromark-extension-mdx-jsx';
import { mdxExpression } from 'micromark-extension-mdx-expression';
import { mdxMd } from 'micromark-extension-mdx-md';
import { mdxJsxFromMarkdown } from 'mdast-util-mdx-jsx';
import { mdxExpressionFromMarkdown } from 'mdast-util-mdx-expression';
import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import { gfmFootnote } from 'micromark-extension-gfm-footnote';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import type { Processor } from 'unified';
import { fastParse } from './fastParse/fastParse.js';

// The package's entry also loads its HTML compiler, and with it a second copy of KaTeX: memory
// in every export worker, for nothing (formulas are typeset by renderMath). Only the
// syntax is needed, so it is imported by its path (which the package's exports map would refuse).
const { math } = (await import(
  new URL('lib/syntax.js', import.meta.resolve('micromark-extension-math')).href
)) as typeof import('micromark-extension-math');

/** `.md` is CommonMark + GFM with raw HTML (no JSX, no expressions); `.mdx` is MDX 3. */
export type SourceKind = 'md' | 'mdx';

interface SyntaxData {
  micromarkExtensions?: unknown[];
  fromMarkdownExtensions?: unknown[];
}

/** Adds micromark and mdast extensions to a processor, the way remark plugins do. */
function extensions(micromark: unknown[], mdast: unknown[]) {
  return function (this: Processor) {
    const data = this.data() as SyntaxData;
    (data.micromarkExtensions ??= []).push(...micromark);
    (data.fromMarkdownExtensions ??= []).push(...mdast);
  };
}

/**
 * MDX without acorn: JSX and `{expressions}` are recognised but expressions stay source text,
 * parsed later only if they are evaluated. Used for pages without import/export statements,
 * which is most of them; parsing is markedly faster without building estree for every brace.
 */
const mdxWithoutAcorn = extensions([mdxExpression(), mdxJsx(), mdxMd()], [mdxExpressionFromMarkdown(), mdxJsxFromMarkdown()]);

/**
 * Syntax a page can only contain if a marker is present in its text. Every micromark extension
 * is consulted at each character it could start on (autolink literals at every letter, tables at
 * every line), so a page without `|` skips table parsing entirely; output is identical because
 * the construct cannot occur. The order is GFM's own (micromark-extension-gfm), then frontmatter
 * and math as remark-frontmatter/remark-math added them.
 */
const OPTIONAL_SYNTAX: Array<{ present: (text: string) => boolean; plugin: (this: Processor) => void }> = [
  // www., http(s):// and e-mail (mailto:/xmpp: contain an @ too) are the only autolink literal starts.
  { present: (t) => /www\.|https?:\/\/|@/i.test(t), plugin: extensions([gfmAutolinkLiteral()], [gfmAutolinkLiteralFromMarkdown()]) },
  { present: (t) => t.includes('[^'), plugin: extensions([gfmFootnote()], [gfmFootnoteFromMarkdown()]) },
  { present: (t) => t.includes('~'), plugin: extensions([gfmStrikethrough()], [gfmStrikethroughFromMarkdown()]) },
  // A GFM table's delimiter row always has a pipe (a one-column table needs leading/trailing pipes).
  { present: (t) => t.includes('|'), plugin: extensions([gfmTable()], [gfmTableFromMarkdown()]) },
  { present: (t) => /\[[ \txX]\]/.test(t), plugin: extensions([gfmTaskListItem()], [gfmTaskListItemFromMarkdown()]) },
  {
    present: (t) => t.startsWith('---'),
    plugin: function (this: Processor) {
      remarkFrontmatter.call(this, ['yaml']);
    },
  },
  { present: (t) => t.includes('$'), plugin: extensions([math()], [mathFromMarkdown()]) },
];

const processors = new Map<number, Processor<Root>>();

/** The (cached) parser for this text: its kind, whether it has ES module statements, and the optional syntax it may contain. */
function processorFor(text: string, kind: SourceKind, esm: boolean): Processor<Root> {
  let key = kind === 'md' ? 0 : esm ? 2 : 1;
  OPTIONAL_SYNTAX.forEach((s, i) => {
    if (s.present(text)) key |= 4 << i;
  });
  let processor = processors.get(key);
  if (!processor) {
    const p = unified().use(remarkParse);
    if (kind === 'mdx') p.use(esm ? remarkMdx : mdxWithoutAcorn);
    OPTIONAL_SYNTAX.forEach((s, i) => {
      if (key & (4 << i)) p.use(s.plugin);
    });
    processor = p as unknown as Processor<Root>;
    processors.set(key, processor);
  }
  return processor;
}
const ESM_LINE = /^(?:import|export)\b/;

/**
 * Whether the text has a line MDX reads as an ES module statement. Lines in fenced code are code;
 * lines after a fence that is never closed still count, because a container (a list item) may
 * end that fence earlier than this line-based scan can tell, and taking the acorn path for a
 * page without ESM only costs time, while missing a statement would change the page.
 */
function hasEsmLine(text: string): boolean {
  let found = false;
  forEachLineOutsideFences(
    text.split('\n'),
    (line) => {
      found = ESM_LINE.test(line);
      return found;
    },
    { unclosedFenceIsCode: false },
  );
  return found;
}

/**
 * Parses page or snippet text to mdast. Throws (with position) on MDX syntax errors. Most pages
 * take the fast path (src/render/mdx/fastParse), which gives the same tree as micromark for the
 * constructs it knows and declines everything else; the differential test holds it to that.
 */
export function parseSource(text: string, kind: SourceKind): Root {
  const prepared = normalizeSource(text, kind);
  return fastParse(prepared, kind) ?? parseWithMicromark(prepared, kind);
}

/** The reference parse of normalised text: unified + remark + micromark (what the fast path must equal). */
export function parseWithMicromark(prepared: string, kind: SourceKind): Root {
  if (kind === 'md') return processorFor(prepared, 'md', false).parse(prepared);
  let current = prepared;
  for (let attempt = 0; ; attempt++) {
    try {
      return processorFor(current, 'mdx', hasEsmLine(current)).parse(current);
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
  forEachLineOutsideFences(lines, (line, i) => {
    const m = HEADING_ID.exec(line);
    if (m) lines[i] = `${m[1]} \\{#${m[2]}\\}`;
  });
  return lines.join('\n');
}

/**
 * Calls `visit` with every line outside fenced code blocks (fence lines themselves excluded);
 * `visit` returning true (truthy) stops. A fence still open at the end runs to the end of the text as
 * far as CommonMark goes; `unclosedFenceIsCode: false` visits its lines anyway.
 */
function forEachLineOutsideFences(
  lines: string[],
  visit: (line: string, index: number) => unknown,
  options = { unclosedFenceIsCode: true },
): void {
  let fence: string | null = null;
  let fenceStart = 0;
  for (let i = 0; i < lines.length; i++) {
    const f = FENCE.exec(lines[i]);
    if (f) {
      if (fence === null) {
        fence = f[1];
        fenceStart = i;
      } else if (f[1][0] === fence[0] && f[1].length >= fence.length && lines[i].trim() === f[1]) fence = null;
      continue;
    }
    if (fence === null && visit(lines[i], i) === true) return;
  }
  if (fence !== null && !options.unclosedFenceIsCode) {
    for (let i = fenceStart + 1; i < lines.length; i++) if (visit(lines[i], i) === true) return;
  }
}

/** The page's YAML frontmatter block, raw (parsed separately so the navigation pre-pass can skip full parsing). */
export function frontmatterText(text: string): string | null {
  const m = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  return m ? m[1] : null;
}
