import type * as ES from 'estree-jsx';
import { jsxText } from '../mdx/jsxValues.js';

/** An estree node as acorn gives it: with its source offsets. */
type Ranged = ES.Node & { start: number; end: number };

/** The names compiled JSX calls; chosen so no author code plausibly declares them. */
export const JSX_FACTORY = '__enclave_h';
export const JSX_FRAGMENT = '__enclave_Fragment';

const isJsx = (n: ES.Node): n is ES.JSXElement | ES.JSXFragment => n.type === 'JSXElement' || n.type === 'JSXFragment';

/** The outermost JSX nodes inside `node` (not `node` itself), in source order. */
function outermostJsx(node: ES.Node, found: Ranged[] = []): Ranged[] {
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || !value || typeof value !== 'object') continue;
    for (const child of Array.isArray(value) ? value : [value]) {
      if (!child || typeof child.type !== 'string') continue;
      if (isJsx(child)) found.push(child as Ranged);
      else outermostJsx(child, found);
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * The source of `node` with every JSX element in it turned into `__enclave_h(type, props,
 * ...children)` calls, the classic JSX transform, by splicing the original text: the code that
 * reaches the browser is the author's own, only the JSX syntax is rewritten.
 */
export function jsxToCalls(src: string, node: ES.Node): string {
  const n = node as Ranged;
  if (isJsx(n)) return jsxCall(src, n);
  let out = '';
  let pos = n.start;
  for (const inner of outermostJsx(n)) {
    out += src.slice(pos, inner.start) + jsxCall(src, inner);
    pos = inner.end;
  }
  return out + src.slice(pos, n.end);
}

function tagOf(name: ES.JSXElement['openingElement']['name']): string {
  if (name.type === 'JSXNamespacedName') return JSON.stringify(`${name.namespace.name}:${name.name.name}`);
  if (name.type === 'JSXMemberExpression') return `${tagOf(name.object).replace(/"/g, '')}.${name.property.name}`;
  // Lower-case and dashed names are HTML elements; capitalised ones are components in scope.
  return /^[a-z]|-/.test(name.name) ? JSON.stringify(name.name) : name.name;
}

function childCode(src: string, child: ES.JSXElement['children'][number]): string | null {
  if (child.type === 'JSXText') {
    const text = jsxText(child.value);
    return text ? JSON.stringify(text) : null;
  }
  if (child.type === 'JSXExpressionContainer')
    return child.expression.type === 'JSXEmptyExpression' ? null : jsxToCalls(src, child.expression);
  if (child.type === 'JSXSpreadChild') return `...${jsxToCalls(src, child.expression)}`;
  return jsxCall(src, child as Ranged);
}

function propsCode(src: string, attributes: ES.JSXOpeningElement['attributes']): string {
  if (attributes.length === 0) return 'null';
  const parts = attributes.map((attr) => {
    if (attr.type === 'JSXSpreadAttribute') return `...${jsxToCalls(src, attr.argument)}`;
    const key = JSON.stringify(attr.name.type === 'JSXIdentifier' ? attr.name.name : `${attr.name.namespace.name}:${attr.name.name.name}`);
    const v = attr.value;
    if (v === null || v === undefined) return `${key}: true`;
    if (v.type === 'Literal') return `${key}: ${JSON.stringify(v.value)}`;
    if (v.type === 'JSXExpressionContainer')
      return v.expression.type === 'JSXEmptyExpression' ? '' : `${key}: ${jsxToCalls(src, v.expression)}`;
    return `${key}: ${jsxCall(src, v as Ranged)}`;
  });
  return `{${parts.filter(Boolean).join(', ')}}`;
}

function jsxCall(src: string, node: Ranged): string {
  const el = node as unknown as ES.JSXElement | ES.JSXFragment;
  const children = el.children.map((c) => childCode(src, c)).filter((c): c is string => c !== null);
  const head =
    el.type === 'JSXFragment'
      ? `${JSX_FRAGMENT}, null`
      : `${tagOf(el.openingElement.name)}, ${propsCode(src, el.openingElement.attributes)}`;
  return `${JSX_FACTORY}(${[head, ...children].join(', ')})`;
}
