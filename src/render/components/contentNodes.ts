import type { Element, ElementContent } from '../types.js';

/** Children without the whitespace-only text MDX leaves between JSX tags. */
export function contentNodes(children: ElementContent[]): ElementContent[] {
  return children.filter((c) => !(c.type === 'text' && c.value.trim() === '') && c.type !== 'comment');
}

/** The element children, looking through wrapper paragraphs MDX may add around inline JSX. */
export function elementNodes(children: ElementContent[]): Element[] {
  const out: Element[] = [];
  for (const c of contentNodes(children)) {
    if (c.type !== 'element') continue;
    if (c.tagName === 'p' && c.children.some((x) => x.type === 'element' && x.properties?.dataEnclaveTab !== undefined))
      out.push(...elementNodes(c.children));
    else out.push(c);
  }
  return out;
}
