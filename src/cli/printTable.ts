import { escapeControls } from './escapeControls.js';

/** Formats rows as an aligned plain-text table with a header line; control characters in cells are shown escaped. */
export function formatTable(headers: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '-' : escapeControls(String(c)))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return `${cells
    .map((r) =>
      r
        .map((c, i) => (c ?? '').padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}
