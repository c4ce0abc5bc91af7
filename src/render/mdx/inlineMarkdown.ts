import type { Element } from 'hast';
import { toHast } from 'mdast-util-to-hast';
import type { ElementContent } from '../types.js';
import type { PhrasingContent } from 'mdast';
import { parseInline } from './fastParse/parseInline.js';
import { parseWithMicromark } from './parseSource.js';

/** Characters without which a string has no inline Markdown to render (most props have none). */
const MAY_BE_MARKDOWN = /[*_`[~\\&]/;

/**
 * A string prop's inline Markdown (`**bold**`, `` `code` ``, `[link](/x)`, emphasis, strikethrough)
 * as hast, the way the hosted product renders `Frame caption`, `Card title` and the like. Links
 * keep their written targets; the page-wide link pass makes them relative. Null when the text
 * has no Markdown, or isn't one paragraph of it (then it is shown as text).
 */
export function inlineMarkdown(text: string): ElementContent[] | null {
  if (!MAY_BE_MARKDOWN.test(text)) return null;
  const children = parsePhrasing(text);
  if (!children || (children.length === 1 && children[0].type === 'text' && children[0].value === text)) return null;
  return (toHast({ type: 'paragraph', children }) as Element).children;
}

/** The fast inline parser, or the full one where the fast one bails (strikethrough, references …). */
function parsePhrasing(text: string): PhrasingContent[] | null {
  try {
    return parseInline(text, false);
  } catch {
    const root = parseWithMicromark(text.replace(/\n+/g, ' '), 'md');
    const only = root.children.length === 1 ? root.children[0] : null;
    return only?.type === 'paragraph' ? only.children : null;
  }
}
