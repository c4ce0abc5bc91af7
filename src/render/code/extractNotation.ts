/** Per-line marks requested by `[!code …]` comments, keyed by 1-based line number. */
export interface LineMarks {
  add: Set<number>;
  remove: Set<number>;
  highlight: Set<number>;
  focus: Set<number>;
  error: Set<number>;
  warning: Set<number>;
}

// A notation comment at the end of a line: `// [!code ++]`, `# [!code focus:2]`, `<!-- [!code --] -->`, `/* [!code hl] */`.
const NOTATION =
  /\s*(?:\/\/|#|--|;|%|\/\*|<!--|\{\/\*)\s*\[!code\s+(\+\+|--|highlight|hl|focus|error|warning)(?::(\d+))?\]\s*(?:\*\/\}|\*\/|-->)?\s*$/;

/** Removes `[!code ++]`-style markers from the code and returns the lines they mark. */
export function extractNotation(code: string): { code: string; marks: LineMarks } {
  const marks: LineMarks = {
    add: new Set(),
    remove: new Set(),
    highlight: new Set(),
    focus: new Set(),
    error: new Set(),
    warning: new Set(),
  };
  if (!code.includes('[!code')) return { code, marks };
  const out: string[] = [];
  for (const line of code.split('\n')) {
    const m = NOTATION.exec(line);
    if (!m) {
      out.push(line);
      continue;
    }
    const rest = line.slice(0, m.index);
    const count = Math.min(Number(m[2] ?? 1), 10_000);
    const standalone = rest.trim() === '';
    // The marked line is the one being pushed now, or, for a marker alone on its line
    // (which is dropped), the line below it.
    const first = out.length + 1;
    if (!standalone) out.push(rest);
    const kind = m[1];
    const set =
      kind === '++'
        ? marks.add
        : kind === '--'
          ? marks.remove
          : kind === 'focus'
            ? marks.focus
            : kind === 'error'
              ? marks.error
              : kind === 'warning'
                ? marks.warning
                : marks.highlight;
    for (let i = 0; i < count; i++) set.add(first + i);
  }
  return { code: out.join('\n'), marks };
}
