import type { Root, RootContent, Paragraph } from 'mdast';
import type { MdxJsxFlowElement } from 'mdast-util-mdx-jsx';
import { bail } from './FastPathBail.js';
import { parseInline } from './parseInline.js';
import { parseJsxTag, type JsxTag } from './parseJsxTag.js';
import { scanBraces } from './scanBraces.js';
import { isProseLine } from './isProseLine.js';
import { readFrontmatterNode } from './readFrontmatterNode.js';
import { readFencedCode } from './readFencedCode.js';
import { isDelimiterRow, readTable } from './readTable.js';
import { readList, type ParsedFlow, type ParseItem } from './readList.js';
import { readBlockQuote } from './readBlockQuote.js';
import { canInterruptParagraph, listMarkerAt, THEMATIC_BREAK } from './listMarker.js';

const HEADING = /^(#{1,6})(?: +(.*))?$/;
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])(?: |$)/;
const DEFINITION = /^\[[^\]]*\]:/;
const ESM_LINE = /^(?:import|export)\b/;
// parseSource retries at most 50 prose lines; staying well below keeps the fast path exact.
const MAX_PROSE_LINES = 40;

/** JSX flow tags alone on a line (possibly over several lines), or 'text' when the line is a paragraph. */
type FlowTags = { tags: JsxTag[]; nextLine: number } | 'text';

/**
 * Reads the block structure line by line. MDX JSX flow elements are not containers in
 * micromark: their tags are blocks of their own and the lines between them are ordinary
 * top-level flow, nested afterwards by the tags, so a stack of open elements is all the state
 * needed. Lists and block quotes are the containers (readList, readBlockQuote). Every construct
 * not implemented (setext headings, HTML, definitions, …) bails.
 */
export function parseBlocks(text: string, mdx: boolean): Root {
  const lines = text.split('\n');
  const root: Root = { type: 'root', children: [] };
  let from = 0;
  if (text.startsWith('---')) {
    const fm = readFrontmatterNode(lines);
    root.children.push(fm.node);
    from = fm.next;
  }
  root.children.push(...parseFlow(lines, from, null, mdx).children);
  return root;
}

/**
 * The blocks of `lines` from `from` on: the whole page, or a list item's or block quote's lines
 * with their prefixes removed (then `lazy` marks the lines that only continue a paragraph lazily).
 */
// size: a CommonMark block parser's main loop: one branch per block start, sharing the line cursor
function parseFlow(lines: string[], from: number, lazy: boolean[] | null, mdx: boolean): ParsedFlow {
  const text = lines.join('\n');
  const starts: number[] = [];
  for (let i = 0, offset = 0; i < lines.length; i++) {
    starts.push(offset);
    offset += lines[i].length + 1;
  }
  const result: ParsedFlow = { children: [], spread: false };
  const open: MdxJsxFlowElement[] = [];
  let target: RootContent[] = result.children;
  // The open paragraph's lines as written (indentation kept, for code spans across lines).
  let paragraph: string[] | null = null;
  let lazyInParagraph = false;
  let i = from;
  let proseLines = 0;
  let blankBefore = false;
  const parseItem: ParseItem = (itemLines, itemLazy) => parseFlow(itemLines, 0, itemLazy, mdx);
  // Constructs that read several lines must not take in a lazy line: micromark would end them there.
  const noLazyBetween = (start: number, end: number) => {
    if (lazy?.slice(start, end).includes(true)) bail('lazy line inside a block');
  };

  const endParagraph = () => {
    if (paragraph) target.push(toParagraph(paragraph, mdx, lazyInParagraph));
    paragraph = null;
    lazyInParagraph = false;
  };
  // A line holding only JSX tags (one may span lines): flow tags, or the reason the line is text.
  const flowTagsAt = (line: number, indent: number): FlowTags => {
    const tags: JsxTag[] = [];
    let end = starts[line] + indent;
    do {
      const tag = parseJsxTag(text, end);
      tags.push(tag);
      end = tag.end;
      while (text[end] === ' ') end++;
    } while (text[end] === '<');
    if (end < text.length && text[end] !== '\n') {
      if (text[end] === '{') bail('expression after a flow tag');
      if (text.lastIndexOf('\n', end) >= starts[line]) bail('text after a multi-line tag');
      return 'text';
    }
    let next = line + 1;
    while (next < lines.length && starts[next] < end) next++;
    return { tags, nextLine: next };
  };

  while (i < lines.length) {
    const line = lines[i];
    if (line.includes('\t')) bail('tab');
    // Real ES module statements need acorn's estree. A lone line that acorn rejects is prose
    // (parseSource retries it as a paragraph), a fixed number of times per page. Inside a list
    // item the retry's rewrite would not apply the same way, so those bail.
    if (mdx && ESM_LINE.test(line)) {
      if (lazy || paragraph || (lines[i + 1] ?? '').trim() !== '' || ++proseLines > MAX_PROSE_LINES || !isProseLine(line)) bail('esm');
    }
    let indent = 0;
    while (line[indent] === ' ') indent++;
    const rest = line.slice(indent);
    if (rest === '') {
      endParagraph();
      blankBefore = true;
      i++;
      continue;
    }
    if (blankBefore) result.spread = true;
    if (lazy?.[i]) {
      // readList only marks lines that cannot start a block; they must continue a paragraph.
      if (!paragraph) bail('lazy line without a paragraph');
      paragraph.push(rest);
      lazyInParagraph = true;
      i++;
      continue;
    }
    if (!mdx && indent >= 4) bail('indented code or continuation');
    const c = rest[0];

    if (c === '#') {
      const h = HEADING.exec(rest);
      if (h) {
        endParagraph();
        const content = (h[2] ?? '').replace(/ +$/, '');
        if (content.endsWith('#')) bail('heading closing sequence');
        target.push({ type: 'heading', depth: h[1].length as 1, children: parseInline(content, mdx) });
        i++;
        continue;
      }
    }
    if (c === '`' || c === '~') {
      const code = readFencedCode(lines, i, indent, mdx);
      if (code) {
        endParagraph();
        noLazyBetween(i, code.next);
        target.push(code.node);
        i = code.next;
        continue;
      }
    }
    if (c === '<') {
      if (!mdx) bail('html');
      const flow = flowTagsAt(i, indent);
      if (flow !== 'text') {
        endParagraph();
        noLazyBetween(i, flow.nextLine);
        for (const tag of flow.tags) {
          if (tag.closing) {
            const element = open.pop();
            if (!element || element.name !== tag.name) bail('unbalanced jsx flow tag');
            target = open.length ? open[open.length - 1].children : result.children;
          } else {
            const element: MdxJsxFlowElement = { type: 'mdxJsxFlowElement', name: tag.name, attributes: tag.attributes, children: [] };
            target.push(element);
            if (!tag.selfClosing) {
              open.push(element);
              target = element.children;
            }
          }
        }
        i = flow.nextLine;
        continue;
      }
    }
    if (c === '{' && mdx) {
      const end = scanBraces(text, starts[i] + indent);
      if (/^ *$/.test(text.slice(end, starts[i] + line.length))) {
        endParagraph();
        target.push({ type: 'mdxFlowExpression', value: text.slice(starts[i] + indent + 1, end - 1) });
        i++;
        continue;
      }
    }
    if (THEMATIC_BREAK.test(rest)) {
      // After a paragraph line `---` would be a setext underline.
      if (paragraph) bail('thematic break or setext after paragraph');
      target.push({ type: 'thematicBreak' });
      i++;
      continue;
    }
    const marker = listMarkerAt(line);
    if (marker) {
      if (paragraph && !canInterruptParagraph(marker)) bail('list item after paragraph');
      endParagraph();
      const list = readList(lines, i, lazy, mdx, parseItem);
      target.push(list.node);
      i = list.next;
      continue;
    }
    // listMarkerAt sees every marker; this stays as a guard should the two patterns drift apart.
    if (LIST_ITEM.test(rest)) bail('list');
    if (c === '>') {
      if (indent > 3) bail('block quote indented');
      endParagraph();
      const quote = readBlockQuote(lines, i, lazy, mdx, parseItem);
      target.push(quote.node);
      i = quote.next;
      continue;
    }
    // A run of `=` or `-` under a paragraph line is a setext underline (`---` and longer were
    // caught as thematic breaks above, `-` alone as a list item; `--` gets here).
    if ((c === '=' || c === '-') && paragraph && /^(?:=+|-+) *$/.test(rest)) bail('setext heading');
    if (c === '[' && DEFINITION.test(rest)) bail('definition');
    if (i + 1 < lines.length && rest.includes('|') && isDelimiterRow(lines[i + 1])) {
      if (paragraph) bail('table interrupting a paragraph');
      const table = readTable(
        lines,
        i,
        mdx,
        (row) =>
          mdx && lines[row].trimStart().startsWith('<') && flowTagsAt(row, lines[row].length - lines[row].trimStart().length) !== 'text',
      );
      noLazyBetween(i, table.next);
      target.push(table.node);
      i = table.next;
      continue;
    }
    if (paragraph && isDelimiterRow(rest)) bail('delimiter row after paragraph');
    (paragraph ??= []).push(line);
    i++;
  }
  endParagraph();
  if (open.length) bail('unclosed jsx flow element');
  return result;
}

/**
 * A paragraph from its lines. Leading whitespace goes, and a single trailing space before a line
 * ending, as micromark drops them from text; two or more make a hard break, which bails. A code
 * span keeps them, so one may only cross lines when nothing was removed around a line ending and
 * no line was lazy (whose original indentation is not known here).
 */
function toParagraph(lines: string[], mdx: boolean, hasLazyLine: boolean): Paragraph {
  const last = lines.length - 1;
  let exactLineEnds = !hasLazyLine;
  const joined = lines.map((l, n) => {
    const trimmed = l.replace(/^ +| +$/g, '');
    const trailing = l.length - l.replace(/ +$/, '').length;
    if (n < last && trailing > 1) bail('hard break');
    if ((n > 0 && l[0] === ' ') || (n < last && trailing > 0)) exactLineEnds = false;
    return trimmed;
  });
  return { type: 'paragraph', children: parseInline(joined.join('\n'), mdx, exactLineEnds) };
}
