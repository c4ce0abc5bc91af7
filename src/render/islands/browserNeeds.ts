import type * as ES from 'estree-jsx';
import { visitChildren } from './visitChildren.js';

/** Globals that exist only in a browser; a component that reads them needs one. */
const BROWSER_GLOBALS = new Set([
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'location',
  'fetch',
  'setTimeout',
  'setInterval',
  'requestAnimationFrame',
  'alert',
  'matchMedia',
  'IntersectionObserver',
  'ResizeObserver',
]);

const cache = new WeakMap<object, string[]>();

function walk(n: ES.Node, found: Set<string>): void {
  if (n.type === 'CallExpression') {
    const c = n.callee;
    const name =
      c.type === 'Identifier' ? c.name : c.type === 'MemberExpression' && c.property.type === 'Identifier' ? c.property.name : '';
    if (/^use[A-Z]/.test(name)) found.add(`hook ${name}`);
  } else if (n.type === 'JSXAttribute' && n.name.type === 'JSXIdentifier' && /^on[A-Z]/.test(n.name.name)) {
    found.add(`event ${n.name.name}`);
  } else if (n.type === 'Identifier' && BROWSER_GLOBALS.has(n.name)) {
    found.add(`global ${n.name}`);
  } else if (n.type === 'MemberExpression' && !n.computed) {
    // `props.location` names a property, not the global.
    walk(n.object, found);
    return;
  } else if (n.type === 'Property' && !n.computed) {
    walk(n.value, found);
    return;
  }
  visitChildren(n, (child) => walk(child, found));
}

/**
 * Why a component defined in the docs needs a browser: the React hooks it calls, the event
 * handlers it sets and the browser globals it reads, as `hook useState`, `event onClick`,
 * `global window`. Empty for a component a static render shows completely.
 */
export function browserNeeds(body: ES.Node): string[] {
  const hit = cache.get(body);
  if (hit) return hit;
  const found = new Set<string>();
  walk(body, found);
  const needs = [...found].sort();
  cache.set(body, needs);
  return needs;
}
