import type { CitableSection } from './CitableSection.js';

/**
 * The sections an answer cites as `[n]`, in the order first cited. Numbers outside the
 * prompt's excerpts are ignored: an answer can only cite what it was given.
 */
export function citedSections(answer: string, given: readonly CitableSection[]): CitableSection[] {
  const cited = new Set<number>();
  for (const match of answer.matchAll(/\[(\d{1,3})\]/g)) {
    const n = Number(match[1]);
    if (n >= 1 && n <= given.length) cited.add(n);
  }
  return [...cited].map((n) => given[n - 1]!);
}

/**
 * True when a turn left the question open: nothing relevant was retrieved, or the model said
 * it does not know and cited nothing. These are the docs' gaps the dashboard lists.
 */
export function isUnanswered(answer: string, given: readonly CitableSection[]): boolean {
  if (given.length === 0) return true;
  return citedSections(answer, given).length === 0 && /\b(?:I\s+don[’']t\s+know|I\s+do\s+not\s+know)\b/i.test(answer);
}
