import type * as ES from 'estree-jsx';
import { visitChildren } from './visitChildren.js';

const cache = new WeakMap<object, Set<string>>();

function walk(n: ES.Node, found: Set<string>): void {
  if (n.type === 'Identifier') found.add(n.name);
  else if (n.type === 'JSXIdentifier' && /^[A-Z]/.test(n.name)) found.add(n.name);
  visitChildren(n, (child) => walk(child, found));
}

/** Every identifier a function body mentions (and capitalised JSX names): what it may use from its module. */
export function referencedIdentifiers(body: ES.Node): Set<string> {
  let hit = cache.get(body);
  if (!hit) {
    hit = new Set();
    walk(body, hit);
    cache.set(body, hit);
  }
  return hit;
}
