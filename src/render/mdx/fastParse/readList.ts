import type { List, ListItem, RootContent } from 'mdast';
import { bail } from './FastPathBail.js';
import { checkContainerStart, listMarkerAt, type ListMarker } from './listMarker.js';
import { isBlankLine, lazyOrEnds } from './lazyLine.js';

/** What a container's content (a list item's or block quote's lines, prefixes removed) parses to. */
export interface ParsedFlow {
  children: RootContent[];
  /** Whether a blank line separates two of its blocks at its own level (not inside a nested list or code). */
  spread: boolean;
}

/** Parses a container's lines (prefixes removed); `lazy[n]` marks a line that continues a paragraph without the prefix. */
export type ParseItem = (lines: string[], lazy: boolean[]) => ParsedFlow;

// A GFM task list item; the fast path leaves `checked` to micromark.
const TASK = /^\[.\]/;

/**
 * The list whose first item opens at `lines[at]`: its items' lines are collected with the
 * content indentation removed and parsed by `parseItem` as documents of their own, the way
 * CommonMark defines containers. Returns the node and the index after its last non-blank line,
 * so blank lines after the list stay with the enclosing flow, where micromark counts them.
 * `spread` follows mdast-util-from-markdown: an item is spread when a blank line separates two
 * of its own blocks, the list when a blank line separates two items. Anything that the simple
 * line rules here cannot settle bails: empty items, wide gaps after the marker (indented code),
 * markers indented four or more in Markdown, task items, and lines only lazily continuing a paragraph when
 * they might start another block.
 */
// size: the list rules of CommonMark in one loop, sharing the item and indent state
export function readList(
  lines: string[],
  at: number,
  outerLazy: boolean[] | null,
  mdx: boolean,
  parseItem: ParseItem,
): { node: List; next: number } {
  let marker = listMarkerAt(lines[at])!;
  const list: List = { type: 'list', ordered: marker.ordered, start: marker.start, spread: false, children: [] };
  let i = at;
  for (;;) {
    if (marker.empty) bail('empty list item');
    if (marker.gap > 4) bail('list item content indented');
    // MDX has no indented code, so any indentation opens an item; CommonMark allows three spaces.
    if (marker.indent > 3 && !mdx) bail('list item indented');
    const first = lines[i].slice(marker.contentIndent);
    if (TASK.test(first)) bail('task list item');
    checkContainerStart(first);
    const body = [first];
    const lazy = [false];
    let end = i + 1;
    let next: ListMarker | null = null;
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j];
      if (isBlankLine(line)) {
        body.push(line.slice(marker.contentIndent));
        lazy.push(false);
        continue;
      }
      let indent = 0;
      while (line[indent] === ' ') indent++;
      if (indent >= marker.contentIndent && !outerLazy?.[j]) {
        body.push(line.slice(marker.contentIndent));
        lazy.push(false);
        end = j + 1;
        continue;
      }
      const other = listMarkerAt(line);
      if (other && other.kind === marker.kind) {
        next = other;
        break;
      }
      const rest = line.slice(indent);
      if (isBlankLine(lines[j - 1]) || lazyOrEnds(rest, mdx) === 'ends') break;
      body.push(rest);
      lazy.push(true);
      end = j + 1;
    }
    const item = parseItem(body.slice(0, end - i), lazy.slice(0, end - i));
    list.children.push({
      type: 'listItem',
      spread: item.spread,
      checked: null,
      children: item.children as ListItem['children'],
    } satisfies ListItem);
    if (!next) return { node: list, next: end };
    // A blank line between two items makes the list loose.
    if (end < j) list.spread = true;
    marker = next;
    i = j;
  }
}
