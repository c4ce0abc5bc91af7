import type { AlignType, Table, TableRow } from 'mdast';
import { bail } from './FastPathBail.js';
import { parseInline } from './parseInline.js';

const DELIMITER_CELL = /^:?-+:?$/;

/**
 * The cells of a table row: optional outer pipes dropped, split at every pipe (GFM splits before
 * inline parsing, so pipes in code spans split too), each cell trimmed.
 */
function splitRow(line: string): string[] {
  // GFM does not split at an escaped pipe; rows with one are left to micromark.
  if (line.includes('\\|')) bail('escaped pipe in a table');
  let row = trimSpaces(line);
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|')) row = row.slice(0, -1);
  if (trimSpaces(row) === '') bail('table row without cells');
  return row.split('|').map(trimSpaces);
}

// GFM trims only spaces and tabs around cells (tabs never reach here), not other whitespace.
function trimSpaces(s: string): string {
  return s.replace(/^ +| +$/g, '');
}

/** Whether `line` is a GFM delimiter row (`|---|:-:|`); only rows with a pipe are recognised here. */
export function isDelimiterRow(line: string): boolean {
  return line.includes('|') && /^[ |:-]+$/.test(line) && splitRow(line).every((cell) => DELIMITER_CELL.test(cell));
}

function row(cells: string[], mdx: boolean): TableRow {
  return { type: 'tableRow', children: cells.map((cell) => ({ type: 'tableCell', children: parseInline(cell, mdx) })) };
}

/**
 * The table whose header is `lines[at]` and delimiter row `lines[at + 1]`. Body rows run to a
 * blank line, the end, or a line `endsTable` recognises (a JSX flow tag); any other line that
 * does not start with a pipe bails, since GFM would read it as a row or as another block.
 */
export function readTable(lines: string[], at: number, mdx: boolean, endsTable: (i: number) => boolean): { node: Table; next: number } {
  // In Markdown a line indented four spaces is indented code, not a row; MDX has no indented code.
  const indented = (line: string) => !mdx && line.startsWith('    ');
  if (indented(lines[at + 1])) bail('indented table row');
  const head = splitRow(lines[at]);
  const delimiters = splitRow(lines[at + 1]);
  if (head.length !== delimiters.length) bail('table header and delimiter differ');
  const align = delimiters.map(
    (d): AlignType => (d.startsWith(':') ? (d.endsWith(':') ? 'center' : 'left') : d.endsWith(':') ? 'right' : null),
  );
  const rows = [row(head, mdx)];
  let i = at + 2;
  for (; i < lines.length; i++) {
    const line = trimSpaces(lines[i]);
    if (line === '' || endsTable(i)) break;
    if (indented(lines[i])) bail('indented table row');
    if (!line.startsWith('|') || line === '|') bail('table row shape');
    rows.push(row(splitRow(line), mdx));
  }
  return { node: { type: 'table', align, children: rows }, next: i };
}
