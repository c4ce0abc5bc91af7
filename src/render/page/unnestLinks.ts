import type { Element, ElementContent, Root } from 'hast';

/** Attributes that belong to the link itself, so they move to the stretched link. */
const LINK_ATTRS = ['href', 'target', 'rel', 'download', 'hrefLang', 'referrerPolicy', 'ping', 'type'];
/** Elements that make a wrapper a block: a `<span>` may not hold them. */
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'dialog',
  'div',
  'dl',
  'fieldset',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
]);
const SILENT = new Set(['svg', 'script', 'style', 'template']);
const MAX_LABEL = 200;

function contains(node: Element, test: (el: Element) => boolean): boolean {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (test(child) || contains(child, test)) return true;
  }
  return false;
}

/** The box's text for the stretched link's name: blocks apart, heading anchors (`#`) and drawings left out. */
function labelOf(node: Element): string {
  let out = '';
  for (const child of node.children) {
    if (child.type === 'text') out += child.value;
    else if (child.type !== 'element' || SILENT.has(child.tagName)) continue;
    else if (Array.isArray(child.properties.className) && child.properties.className.includes('enclave-anchor')) continue;
    else out += BLOCK.has(child.tagName) ? ` ${labelOf(child)} ` : labelOf(child);
  }
  return out;
}

/**
 * Turns a link that holds another link into a box with a stretched link, as the hosted renderer
 * does: HTML forbids `<a>` in `<a>`, and the browser's parser closes the outer link at the
 * inner one, which splits cards and their grids apart. The box keeps the outer link's classes
 * and other attributes; an empty link named after the box's text covers it (theme.css), and the
 * inner links sit above it so both stay clickable.
 */
function stretch(outer: Element): void {
  const link: Element = {
    type: 'element',
    tagName: 'a',
    properties: { className: ['enclave-stretched-link'] },
    children: [],
  };
  for (const attr of LINK_ATTRS) {
    if (outer.properties[attr] === undefined) continue;
    link.properties[attr] = outer.properties[attr];
    delete outer.properties[attr];
  }
  const label = (typeof outer.properties.ariaLabel === 'string' ? outer.properties.ariaLabel : labelOf(outer))
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_LABEL);
  if (label) link.properties.ariaLabel = label;
  const names = Array.isArray(outer.properties.className) ? outer.properties.className : [];
  outer.properties.className = [...names, 'enclave-stretched'];
  outer.tagName = contains(outer, (el) => BLOCK.has(el.tagName)) ? 'div' : 'span';
  outer.children.unshift(link);
}

/** Rewrites every `<a>` that contains another `<a>` (at any depth) so no link nests in a link. */
export function unnestLinks(root: Root | Element): void {
  for (const child of root.children as ElementContent[]) {
    if (child.type !== 'element') continue;
    if (child.tagName === 'a' && contains(child, (el) => el.tagName === 'a')) stretch(child);
    unnestLinks(child);
  }
}
