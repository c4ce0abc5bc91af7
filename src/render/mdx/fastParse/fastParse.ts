import type { Root } from 'mdast';
import { FastPathBail } from './FastPathBail.js';
import { parseBlocks } from './parseBlocks.js';

// Characters micromark rewrites (NUL) or treats as whitespace in ways the fast path does not model.
const UNUSUAL_CONTROL = /[\0\v\f]/;

/**
 * Parses the common subset of Markdown/MDX straight to the mdast that `parseSource` would
 * produce (positions omitted, except on the frontmatter node), or returns null when the text
 * holds anything it does not reproduce exactly; the caller then uses micromark. `text` must
 * already be normalised by `normalizeSource`. Pages with ES module statements bail; pages whose
 * only `import`/`export` lines are inside fenced code get the acorn-free tree, i.e. expressions
 * without `data.estree` (mdastToHast parses those on demand).
 */
export function fastParse(text: string, kind: 'md' | 'mdx'): Root | null {
  return fastParseOrBail(text, kind).root;
}

/** `fastParse` with the reason for a fallback, for measuring which constructs matter. */
export function fastParseOrBail(text: string, kind: 'md' | 'mdx'): { root: Root | null; reason: string | null } {
  try {
    if (UNUSUAL_CONTROL.test(text)) return { root: null, reason: 'control character' };
    return { root: parseBlocks(text, kind === 'mdx'), reason: null };
  } catch (err) {
    return { root: null, reason: err instanceof FastPathBail ? err.reason : `error: ${(err as Error)?.message}` };
  }
}
