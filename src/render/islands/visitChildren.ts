import type * as ES from 'estree-jsx';

/**
 * Calls `visit` on every ES node directly inside `value` (a node's fields, an array's items,
 * arrays of arrays flattened; `loc`, plain values and objects that are no node skipped). The walkers over component
 * code use it to descend, each deciding per node type what to record and where to stop.
 */
export function visitChildren(value: unknown, visit: (node: ES.Node) => void): void {
  if (!value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isNode(item)) visit(item);
      else if (Array.isArray(item)) visitChildren(item, visit);
    }
    return;
  }
  for (const [key, field] of Object.entries(value)) {
    if (key === 'loc' || !field || typeof field !== 'object') continue;
    if (isNode(field)) visit(field);
    else if (Array.isArray(field)) visitChildren(field, visit);
  }
}

function isNode(value: unknown): value is ES.Node {
  return !!value && typeof value === 'object' && !Array.isArray(value) && typeof (value as { type?: unknown }).type === 'string';
}
