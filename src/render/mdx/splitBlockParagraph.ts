import type { Element, ElementContent } from 'hast';

/** Elements whose start tag closes an open `<p>` in the HTML parser (and list items). */
const BLOCK = new Set(
  'address article aside blockquote center details dialog dir div dl dd dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li listing main menu nav ol p plaintext pre search section summary table ul xmp'.split(
    ' ',
  ),
);

/** True when an element is, or holds, something a browser won't keep inside a paragraph. */
function holdsBlock(node: Element): boolean {
  if (BLOCK.has(node.tagName)) return true;
  return node.children.some((c) => c.type === 'element' && holdsBlock(c));
}

const isBlank = (nodes: ElementContent[]) => nodes.every((n) => n.type === 'text' && n.value.trim() === '');

/**
 * A paragraph whose line is a component that renders a box (`<Card>text</Card>`, `<Note>…</Note>`
 * written on one line) would put a `<div>` inside a `<p>`: the browser's parser closes the
 * paragraph there and the component falls out of its layout (a linked card loses its link).
 * Such a paragraph becomes its boxes, with the text around them kept as paragraphs of their own.
 * Paragraphs of text and inline elements are returned as they are.
 */
export function splitBlockParagraph(p: Element): ElementContent | ElementContent[] {
  if (!p.children.some((c) => c.type === 'element' && holdsBlock(c))) return p;
  const out: ElementContent[] = [];
  let run: ElementContent[] = [];
  const flush = () => {
    if (!isBlank(run)) out.push({ ...p, children: run });
    run = [];
  };
  for (const child of p.children) {
    if (child.type === 'element' && holdsBlock(child)) {
      flush();
      out.push(child);
    } else run.push(child);
  }
  flush();
  return out;
}
