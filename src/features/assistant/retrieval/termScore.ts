/** Where one query term was found in one section. */
export interface TermMatch {
  /** Where the term starts in the lower-cased page title (-1: absent). */
  titleAt: number;
  /** The title is exactly the term. */
  titleIsTerm: boolean;
  inSection: boolean;
  inDescription: boolean;
  /** Non-overlapping occurrences in the section's text. */
  bodyCount: number;
}

/** The most one term can score (title start 120, heading 30, description 15, body 5 + 10). */
export const MAX_TERM_SCORE = 180;

/**
 * One term's score in one section, with the weights of the site's own search box (theme.js
 * `search`), applied to a section instead of a page: in the page title 100 (120 at its start or
 * when it is the whole title), in the section heading 30, in the description 15, in the body 5
 * plus its count up to 10.
 */
export function termScore(m: TermMatch): number {
  let s = 0;
  if (m.titleAt >= 0) s += m.titleIsTerm || m.titleAt === 0 ? 120 : 100;
  if (m.inSection) s += 30;
  if (m.inDescription) s += 15;
  if (m.bodyCount > 0) s += 5 + Math.min(m.bodyCount, 10);
  return s;
}
