/**
 * A deep copy of a hast tree (plain objects, arrays and primitives only, as hast is), without
 * the nodes' source positions: a copy placed into another page has no position of its own. For
 * the memoised pieces reused across pages (icons, formulas), copied many times per export and
 * several times faster this way than with `structuredClone`.
 */
export function cloneHast<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => cloneHast(item)) as T;
  const isNode = 'type' in value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (!(isNode && key === 'position')) copy[key] = cloneHast(item);
  return copy as T;
}
