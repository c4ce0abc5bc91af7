import { parseEntities } from 'parse-entities';
import type { MdxJsxAttribute } from 'mdast-util-mdx-jsx';
import { bail } from './FastPathBail.js';
import { scanBraces } from './scanBraces.js';

/** One JSX tag as MDX reads it: `<Name a="b" c={d}>`, `<Name />` or `</Name>`. */
export interface JsxTag {
  name: string;
  attributes: MdxJsxAttribute[];
  closing: boolean;
  selfClosing: boolean;
  /** Index just after the tag's `>`. */
  end: number;
}

const NAME = /[A-Za-z_][A-Za-z0-9_-]*/y;

function isSpace(c: string): boolean {
  return c === ' ' || c === '\n';
}

/**
 * Reads the tag starting at `s[start] === '<'`. Only the common shapes are accepted (plain
 * names, string and `{expression}` attribute values on one line); member and namespace names,
 * spreads, fragments and values with character references bail, since MDX decodes or rejects them.
 */
// size: a character scanner over one tag; its states share the cursor
export function parseJsxTag(s: string, start: number): JsxTag {
  let i = start + 1;
  const closing = s[i] === '/';
  if (closing) i++;
  NAME.lastIndex = i;
  const m = NAME.exec(s);
  if (!m) return bail('jsx tag name');
  const name = m[0];
  i = NAME.lastIndex;
  if (s[i] === '.' || s[i] === ':') bail('jsx member or namespace name');
  if (closing) {
    if (s[i] !== '>') bail('jsx closing tag shape');
    return { name, attributes: [], closing, selfClosing: false, end: i + 1 };
  }
  const attributes: MdxJsxAttribute[] = [];
  for (;;) {
    const before = i;
    while (i < s.length && isSpace(s[i])) i++;
    const c = s[i];
    if (c === '>') return { name, attributes, closing, selfClosing: false, end: i + 1 };
    if (c === '/') {
      if (s[i + 1] !== '>') bail('jsx self-closing shape');
      return { name, attributes, closing, selfClosing: true, end: i + 2 };
    }
    // Attributes need whitespace before them; anything else here is unusual syntax or an error.
    if (i === before) bail('jsx attribute spacing');
    NAME.lastIndex = i;
    const a = NAME.exec(s);
    if (!a) return bail('jsx attribute name');
    i = NAME.lastIndex;
    if (s[i] === ':') bail('jsx namespaced attribute');
    let j = i;
    while (j < s.length && isSpace(s[j])) j++;
    if (s[j] !== '=') {
      attributes.push({ type: 'mdxJsxAttribute', name: a[0], value: null });
      continue;
    }
    j++;
    while (j < s.length && isSpace(s[j])) j++;
    const q = s[j];
    if (q === '"' || q === "'") {
      const close = s.indexOf(q, j + 1);
      if (close < 0) bail('jsx unclosed attribute value');
      const raw = s.slice(j + 1, close);
      if (raw.includes('\n')) bail('jsx attribute value lines');
      // Decoded exactly as mdast-util-mdx-jsx decodes literal attribute values.
      const value = raw.includes('&') ? parseEntities(raw, { nonTerminated: false }) : raw;
      attributes.push({ type: 'mdxJsxAttribute', name: a[0], value });
      i = close + 1;
    } else if (q === '{') {
      const end = scanBraces(s, j);
      attributes.push({
        type: 'mdxJsxAttribute',
        name: a[0],
        value: { type: 'mdxJsxAttributeValueExpression', value: s.slice(j + 1, end - 1) },
      });
      i = end;
    } else {
      bail('jsx attribute value');
    }
  }
}
