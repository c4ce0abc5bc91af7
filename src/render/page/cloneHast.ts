/**
 * A deep copy of a hast tree (plain objects, arrays and primitives only, as hast is), without
 * source positions: a copy placed into another page has no position of its own. For the
 * memoised pieces reused across pages (icons, formulas); `structuredClone` took 45 ms of a
 * 1,000-page export for the callout icons alone, this takes a few.
 */
export function cloneHast<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneHast) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (key !== 'position') copy[key] = cloneHast(item);
  return copy as T;
}
