import type { Element, Root as HastRoot } from 'hast';
import type { Html, Heading } from 'mdast';
import { toHast, type State } from 'mdast-util-to-hast';
import type { ElementContent, RenderContext } from '../types.js';
import { el } from '../components/buildElement.js';
import { inlineMarkdown } from '../mdx/inlineMarkdown.js';
import { parseWithMicromark } from '../mdx/parseSource.js';

/** Characters or line starts without which a description is one plain paragraph (most are). */
const MAY_BE_MARKDOWN = /[*_`[~\\&<|#>]|^\s*(?:[-+]\s|\d+[.)]\s)|\n\s*\n|\n\s*(?:[-+*]\s|\d+[.)]\s)/;

/** Spec descriptions are long at worst; anything beyond this is cut rather than parsed. */
const LONGEST_DESCRIPTION = 20_000;

/**
 * How spec Markdown maps to hast. Raw HTML is shown as the text it is: a spec is input from
 * anyone, and `<img onerror>` in a description must not become markup. Headings drop three
 * levels so a description's `# Title` doesn't outrank the page's own sections.
 */
const handlers = {
  html: (_state: State, node: Html): ElementContent => ({ type: 'text', value: node.value }),
  heading: (state: State, node: Heading): Element => {
    const tagName = `h${Math.min(6, node.depth + 3)}`;
    return { type: 'element', tagName, properties: {}, children: state.all(node) as ElementContent[] };
  },
};

/** Resolves every link a description wrote, as components do, so the page's link pass keeps it. */
function resolveLinks(nodes: ElementContent[], ctx: RenderContext): void {
  for (const node of nodes) {
    if (node.type !== 'element') continue;
    if (node.tagName === 'a' && typeof node.properties.href === 'string') node.properties.href = ctx.href(node.properties.href);
    resolveLinks(node.children, ctx);
  }
}

/** Inline Markdown of one line (a response's summary): code, emphasis, links; text when it has none. */
export function renderInlineMarkdown(text: string, ctx: RenderContext): ElementContent[] {
  const children = inlineMarkdown(text);
  if (!children) return [{ type: 'text', value: text }];
  resolveLinks(children, ctx);
  return children;
}

/**
 * A spec description as the hosted product shows it: full CommonMark + GFM (lists, code blocks,
 * tables, emphasis, links), with raw HTML kept as visible text. A description without any
 * Markdown marker skips the parser, which keeps specs with thousands of fields fast.
 */
export function renderDescription(text: unknown, ctx: RenderContext): ElementContent[] {
  if (typeof text !== 'string' || text.trim() === '') return [];
  const source = text.trim().slice(0, LONGEST_DESCRIPTION);
  if (!MAY_BE_MARKDOWN.test(source)) return [el('p', {}, source.replace(/\s*\n\s*/g, ' '))];
  const hast = toHast(parseWithMicromark(source, 'md'), { handlers }) as HastRoot;
  const children = hast.children.filter((c): c is ElementContent => c.type === 'element' || (c.type === 'text' && c.value.trim() !== ''));
  resolveLinks(children, ctx);
  return children;
}
