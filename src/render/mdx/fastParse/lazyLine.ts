import { bail } from './FastPathBail.js';
import { canInterruptParagraph, listMarkerAt, THEMATIC_BREAK } from './listMarker.js';

// A line that can only be paragraph text: it cannot start any block that would interrupt a paragraph.
const PLAIN_TEXT = /^\p{L}[^|]*$/u;
// Lines that surely end a paragraph: an ATX heading, a code fence (a backtick one without
// backticks after it), a block quote, a lone JSX tag in MDX.
const HEADING_LINE = /^#{1,6}(?: |$)/;
const FENCE_LINE = /^(?:```(?!.*`)|~~~)/;
const JSX_TAG_LINE = /^<\/?[A-Za-z][\w-]*(?: [^<>{}]*)?\/?> *$/;

/**
 * What a line without a container's prefix (`rest`, indentation removed) does right after a
 * paragraph line inside that container: 'lazy' when it can only continue the paragraph, 'ends'
 * when it starts a block that interrupts the paragraph and so closes the container. Lines the
 * fast path cannot classify with certainty bail.
 */
export function lazyOrEnds(rest: string, mdx: boolean): 'lazy' | 'ends' {
  const marker = listMarkerAt(rest);
  if (marker) return canInterruptParagraph(marker) ? 'ends' : bail('list marker as lazy text');
  if (
    THEMATIC_BREAK.test(rest) ||
    HEADING_LINE.test(rest) ||
    FENCE_LINE.test(rest) ||
    rest.startsWith('>') ||
    (mdx && JSX_TAG_LINE.test(rest))
  )
    return 'ends';
  return PLAIN_TEXT.test(rest) ? 'lazy' : bail('possible lazy line');
}

/** Whether a line is blank to micromark: spaces only (tabs bail earlier; other Unicode spaces are text). */
export function isBlankLine(line: string): boolean {
  return /^ *$/.test(line);
}
