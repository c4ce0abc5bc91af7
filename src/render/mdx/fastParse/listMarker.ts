import { bail } from './FastPathBail.js';

/** A list item's opening line, measured in columns (tabs never reach here). */
export interface ListMarker {
  indent: number;
  ordered: boolean;
  start: number | null;
  /** The bullet character, or the ordered delimiter (`.`/`)`): an item with another one starts a new list. */
  kind: string;
  /** Column where the item's content starts; later lines indented this far belong to the item. */
  contentIndent: number;
  /** Spaces between the marker and the content. */
  gap: number;
  empty: boolean;
}

const MARKER = /^( *)(?:([-*+])|(\d{1,9})([.)]))(?:( +)(.*))?$/;
export const THEMATIC_BREAK = /^ *(?:(?:\* *){3,}|(?:- *){3,}|(?:_ *){3,})$/;

/** The list item marker opening `line`, or null. A line of `* * *` is a thematic break, not an item. */
export function listMarkerAt(line: string): ListMarker | null {
  const m = MARKER.exec(line);
  if (!m || THEMATIC_BREAK.test(line)) return null;
  const indent = m[1].length;
  const gap = m[5]?.length ?? 0;
  return {
    indent,
    ordered: m[2] === undefined,
    start: m[3] === undefined ? null : Number.parseInt(m[3], 10),
    kind: m[2] ?? m[4],
    contentIndent: indent + (m[2] ? 1 : m[3].length + 1) + gap,
    gap,
    empty: (m[6] ?? '') === '',
  };
}

/** Whether the item `marker` opens may interrupt an open paragraph (CommonMark: not empty, ordered only from 1). */
export function canInterruptParagraph(marker: ListMarker): boolean {
  return !marker.empty && (!marker.ordered || marker.start === 1);
}

/**
 * Checks the first line of a container's content (a list item, a block quote). micromark reads a
 * marker there as a nested list only when the item could interrupt a paragraph; other markers bail.
 */
export function checkContainerStart(content: string): void {
  const marker = listMarkerAt(content);
  if (marker && !canInterruptParagraph(marker)) bail('container starting with a list marker');
}
