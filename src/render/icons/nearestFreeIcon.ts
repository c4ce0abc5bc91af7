import { findIconSvg } from './findIconSvg.js';

/**
 * A free icon standing in for a name the bundled sets lack (mostly Font Awesome Pro names, which
 * extend a free name: `chart-line-up` → `chart-line`, `book-open-cover` → `book-open`,
 * `sharp-house` → `house`): the longest known name left after dropping words from the end, then
 * from the start. Null when no part of the name is an icon.
 */
export function nearestFreeIcon(
  name: string,
  library: string,
  iconType?: string,
): { name: string; found: NonNullable<ReturnType<typeof findIconSvg>> } | null {
  const words = name.trim().toLowerCase().split('-').filter(Boolean);
  const candidates: string[] = [];
  for (let n = words.length - 1; n >= 1; n--) candidates.push(words.slice(0, n).join('-'));
  for (let s = 1; s < words.length; s++) candidates.push(words.slice(s).join('-'));
  for (const candidate of candidates) {
    // Single short words ("arrow", "box") still make a fair stand-in; one letter doesn't.
    if (candidate.length < 3) continue;
    const found = findIconSvg(candidate, library, iconType);
    if (found) return { name: candidate, found };
  }
  return null;
}
