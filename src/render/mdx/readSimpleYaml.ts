/**
 * Reads the YAML that nearly every page's frontmatter is: one `key: value` per line, the values
 * strings (plain, single- or double-quoted without escapes) or `true`/`false`. Anything else
 * (nesting, lists, numbers, nulls, escapes, comments, multi-line scalars, duplicate keys, a
 * value YAML would type differently) returns null, and the full YAML parser reads it. On
 * documents this simple the full parser's cost is mostly its own start-up, paid once per page.
 */
export function readSimpleYaml(raw: string): Record<string, string | boolean> | null {
  const out: Record<string, string | boolean> = {};
  for (const line of raw.split('\n')) {
    if (line === '') continue;
    const m = /^([A-Za-z][A-Za-z0-9_-]*): +(\S(?:.*\S)?)$/.exec(line);
    if (!m) return null;
    const [, key, text] = m;
    if (Object.hasOwn(out, key)) return null;
    const value = scalar(text);
    if (value === null) return null;
    out[key] = value;
  }
  return out;
}

/** Words that YAML 1.1 or 1.2 readers may take for booleans or nulls: left to the full parser. */
const TYPED_WORDS = /^(?:y|n|yes|no|on|off|true|false|null|~)$/i;

function scalar(text: string): string | boolean | null {
  if (text === 'true') return true;
  if (text === 'false') return false;
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    const inner = text.slice(1, -1);
    if (text.length < 2 || text[text.length - 1] !== quote || inner.includes(quote) || (quote === '"' && inner.includes('\\'))) return null;
    return inner;
  }
  // A plain scalar: no indicator at the start, nothing that could be a number, a typed word,
  // a comment, a nested mapping, an alias, a tag or a flow collection.
  if (/^[-?:,[\]{}#&*!|>%@`+.0-9]/.test(text) || TYPED_WORDS.test(text)) return null;
  if (text.includes(': ') || text.includes(' #') || text.endsWith(':') || /[\t\r\\]/.test(text)) return null;
  return text;
}
