import type * as ES from 'estree-jsx';

const cache = new WeakMap<object, Set<string>>();

function walk(node: unknown, found: Set<string>): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) walk(n, found);
    return;
  }
  const n = node as ES.Node;
  if (typeof n.type !== 'string') return;
  if (n.type === 'Identifier') found.add(n.name);
  else if (n.type === 'JSXIdentifier' && /^[A-Z]/.test(n.name)) found.add(n.name);
  for (const [key, value] of Object.entries(n)) if (key !== 'loc' && value && typeof value === 'object') walk(value, found);
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
