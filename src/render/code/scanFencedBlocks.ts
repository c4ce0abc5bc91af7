/** A fenced code block as a page's source writes it: its language word and its code. */
export interface FencedBlock {
  lang: string | null;
  value: string;
}

/** An opening fence: indentation, three or more backticks or tildes, and the info string. */
const OPENING = /^([ \t]*)(`{3,}|~{3,})(.*)$/;

/**
 * The fenced code blocks of a Markdown/MDX text, read line by line as CommonMark reads fences
 * (the closing fence is the opening's character, at least as long; content lines lose up to the
 * opening fence's indentation). A quick reading for getting code ready ahead of the render, not
 * the parser's: a block it reads differently just isn't ready when the page asks for it.
 */
export function scanFencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const open = OPENING.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    // A backtick fence's info string may not contain backticks (that is inline code).
    if (fence[0] === '`' && info.includes('`')) continue;
    const closing = new RegExp(`^[ \\t]*${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !closing.test(lines[j]); j++) body.push(stripIndent(lines[j], indent.length));
    blocks.push({ lang: info.trim().split(/\s+/)[0] || null, value: body.join('\n') });
    i = j;
  }
  return blocks;
}

/** `line` without up to `width` leading spaces or tabs. */
function stripIndent(line: string, width: number): string {
  let k = 0;
  while (k < width && (line[k] === ' ' || line[k] === '\t')) k++;
  return line.slice(k);
}
