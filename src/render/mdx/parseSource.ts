import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import remarkGfm from 'remark-gfm';
import remarkFrontmatter from 'remark-frontmatter';
import remarkMath from 'remark-math';
import type { Root } from 'mdast';

/** `.md` is CommonMark + GFM with raw HTML (no JSX, no expressions); `.mdx` is MDX 3. */
export type SourceKind = 'md' | 'mdx';

const mdProcessor = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']).use(remarkMath);
const mdxProcessor = unified().use(remarkParse).use(remarkMdx).use(remarkGfm).use(remarkFrontmatter, ['yaml']).use(remarkMath);

/** Parses page or snippet text to mdast. Throws (with position) on MDX syntax errors. */
export function parseSource(text: string, kind: SourceKind): Root {
  const prepared = normalizeSource(text, kind);
  return kind === 'mdx' ? mdxProcessor.parse(prepared) : mdProcessor.parse(prepared);
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
