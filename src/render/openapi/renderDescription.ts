import type { ElementContent, RenderContext } from '../types.js';
import { el } from '../components/buildElement.js';

/** Inline Markdown that spec descriptions commonly use: `code`, **bold**, and [links](url). */
export function renderInlineMarkdown(text: string, ctx: RenderContext): ElementContent[] {
  const out: ElementContent[] = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push({ type: 'text', value: text.slice(last, m.index) });
    if (m[1] !== undefined) out.push(el('code', {}, m[1]));
    else if (m[2] !== undefined) out.push(el('strong', {}, m[2]));
    else out.push(el('a', { href: ctx.href(m[4]) }, m[3]));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ type: 'text', value: text.slice(last) });
  return out;
}

/**
 * A spec description (Markdown) as paragraphs. Only the inline basics are interpreted: the
 * renderer's MDX pipeline isn't reachable from here and spec prose rarely needs more.
 */
export function renderDescription(text: unknown, ctx: RenderContext): ElementContent[] {
  if (typeof text !== 'string' || text.trim() === '') return [];
  return text
    .trim()
    .split(/\n\s*\n/)
    .slice(0, 200)
    .map((para) => el('p', {}, renderInlineMarkdown(para.replace(/\s*\n\s*/g, ' '), ctx)));
}
