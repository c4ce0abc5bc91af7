import type { Blockquote, BlockContent, DefinitionContent } from 'mdast';
import { bail } from './FastPathBail.js';
import { isBlankLine, lazyOrEnds } from './lazyLine.js';
import { checkContainerStart } from './listMarker.js';
import type { ParseItem } from './readList.js';

/**
 * The block quote starting at `lines[at]`: each line's `>` and one following space are removed
 * and the rest is parsed by `parseContent` as a document of its own. The quote runs while lines
 * start with `>`, plus lines that lazily continue a paragraph (lazyOrEnds); a blank line or an
 * interrupting block ends it. Markers indented four or more bail (code in Markdown; MDX's
 * unlimited indentation is not needed by real pages).
 */
export function readBlockQuote(
  lines: string[],
  at: number,
  outerLazy: boolean[] | null,
  mdx: boolean,
  parseContent: ParseItem,
): { node: Blockquote; next: number } {
  const body: string[] = [];
  const lazy: boolean[] = [];
  let j = at;
  for (; j < lines.length; j++) {
    const line = lines[j];
    let indent = 0;
    while (line[indent] === ' ') indent++;
    if (line[indent] === '>' && !outerLazy?.[j]) {
      if (indent > 3) bail('block quote indented');
      const content = line.slice(indent + 1);
      body.push(content[0] === ' ' ? content.slice(1) : content);
      lazy.push(false);
      continue;
    }
    const rest = line.slice(indent);
    if (rest === '' || isBlankLine(body[body.length - 1]) || lazyOrEnds(rest, mdx) === 'ends') break;
    body.push(rest);
    lazy.push(true);
  }
  checkContainerStart(body[0]);
  const children = parseContent(body, lazy).children as Array<BlockContent | DefinitionContent>;
  return { node: { type: 'blockquote', children }, next: j };
}
