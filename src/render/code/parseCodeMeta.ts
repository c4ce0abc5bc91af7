/** What a fence's meta string asks for, after the language. */
export interface CodeMeta {
  /** Title / filename shown in the block's header (and used as its CodeGroup tab label). */
  title?: string;
  /** 1-based line numbers to highlight (`{1,3-5}` or `highlight={…}`). */
  highlight: Set<number>;
  /** 1-based line numbers to focus (`focus={…}`); the others are dimmed. */
  focus: Set<number>;
  lineNumbers: boolean;
  expandable: boolean;
  wrap: boolean;
  icon?: string;
}

/** Lines listed as `1,3-5` (braces optional); ranges are capped so a typo can't allocate millions. */
export function parseLineRanges(spec: string): Set<number> {
  const lines = new Set<number>();
  for (const part of spec.replace(/[{}\s]/g, '').split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) continue;
    const from = Number(m[1]);
    const to = Math.min(m[2] ? Number(m[2]) : from, from + 10_000);
    for (let n = from; n <= to; n++) if (n > 0) lines.add(n);
  }
  return lines;
}

/** Splits the meta into words, keeping `key="a b"`, `key={…}` and `{…}` together. */
function splitMeta(meta: string): string[] {
  return meta.match(/[\w-]+=(?:"[^"]*"|'[^']*'|\{[^}]*\}|\S+)|\{[^}]*\}|"[^"]*"|\S+/g) ?? [];
}

const unquote = (v: string): string => v.replace(/^(["'])(.*)\1$/, '$2').replace(/^\{(.*)\}$/, '$1');

/** Parses a fence meta such as `Title words {1,3-5} lines wrap icon="x"`; words that are no option form the title. */
export function parseCodeMeta(meta: string | null | undefined): CodeMeta {
  const result: CodeMeta = { highlight: new Set(), focus: new Set(), lineNumbers: false, expandable: false, wrap: false };
  const titleWords: string[] = [];
  for (const word of splitMeta(meta ?? '')) {
    const kv = /^([\w-]+)=(.*)$/s.exec(word);
    if (word.startsWith('{')) {
      for (const n of parseLineRanges(word)) result.highlight.add(n);
    } else if (kv) {
      const [, key, raw] = kv;
      const value = unquote(raw);
      if (key === 'title' || key === 'filename') result.title = value;
      else if (key === 'highlight') for (const n of parseLineRanges(value)) result.highlight.add(n);
      else if (key === 'focus') for (const n of parseLineRanges(value)) result.focus.add(n);
      else if (key === 'icon') result.icon = value;
      else if (key === 'lines') result.lineNumbers = value !== 'false';
      else if (key === 'wrap') result.wrap = value !== 'false';
      else if (key === 'expandable') result.expandable = value !== 'false';
      // Other key=value options (twoslash settings, etc.) have no static meaning; drop them.
    } else if (word === 'lines' || word === 'showLineNumbers') {
      result.lineNumbers = true;
    } else if (word === 'wrap') {
      result.wrap = true;
    } else if (word === 'expandable') {
      result.expandable = true;
    } else if (word === 'twoslash') {
      // Type hovers need a TypeScript program at build time; the code still shows, unannotated.
    } else {
      titleWords.push(unquote(word));
    }
  }
  if (result.title === undefined && titleWords.length > 0) result.title = titleWords.join(' ');
  return result;
}
