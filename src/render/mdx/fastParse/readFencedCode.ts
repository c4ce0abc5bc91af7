import type { Code } from 'mdast';
import { bail } from './FastPathBail.js';

const OPENING = /^(`{3,}|~{3,})(.*)$/;

/**
 * The fenced code block whose opening fence is `lines[at]` (indented by `indent` spaces), or null
 * when the line is not a fence. Returns the node and the index of the line after the closing
 * fence. Unclosed fences bail: they run to the end of the document, past any JSX closing tags.
 */
export function readFencedCode(lines: string[], at: number, indent: number, mdx: boolean): { node: Code; next: number } | null {
  const m = OPENING.exec(lines[at].slice(indent));
  if (!m) return null;
  const fence = m[1];
  const info = m[2].trimStart();
  if (fence[0] === '`' && info.includes('`')) bail('backtick in fence info');
  if (/[\\&]/.test(info)) bail('fence info escapes');
  let lang: string | null = null;
  let meta: string | null = null;
  if (info.trim() !== '') {
    const space = info.indexOf(' ');
    lang = space < 0 ? info : info.slice(0, space);
    // micromark keeps the meta's trailing whitespace but not the whitespace before it.
    const rest = space < 0 ? '' : info.slice(space).trimStart();
    meta = rest === '' ? null : rest;
  }
  const body: string[] = [];
  for (let i = at + 1; i < lines.length; i++) {
    const line = lines[i];
    let spaces = 0;
    while (line[spaces] === ' ') spaces++;
    if (isClosingFence(line, spaces, fence, mdx)) {
      return { node: { type: 'code', lang, meta, value: body.join('\n') }, next: i + 1 };
    }
    // Content lines lose up to the opening fence's indentation; a tab there would count as columns.
    const strip = Math.min(spaces, indent);
    if (line[strip] === '\t' && strip < indent) bail('tab in code indentation');
    body.push(line.slice(strip));
  }
  return bail('unclosed fence');
}

function isClosingFence(line: string, spaces: number, fence: string, mdx: boolean): boolean {
  // Without indented code (MDX) a closing fence may be indented any amount; CommonMark allows three spaces.
  if (!mdx && spaces > 3) return false;
  let n = 0;
  while (line[spaces + n] === fence[0]) n++;
  if (n < fence.length) return false;
  const rest = line.slice(spaces + n);
  if (rest.includes('\t')) bail('tab after closing fence');
  return /^ *$/.test(rest);
}
