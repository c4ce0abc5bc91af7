import type { IndexedChunk } from './ChunkIndex.js';

/** The most one term can score (title start 120, heading 30, description 15, body 5 + 10). */
const MAX_TERM_SCORE = 180;

/** A ranked chunk: how many terms it matched, its score, and the score as a share of the best possible. */
export interface RankedChunk {
  entry: IndexedChunk;
  matched: number;
  score: number;
  share: number;
}

/**
 * Ranks sections with the weights of the site's own search box (theme.js `search`), applied to a
 * section instead of a page: a term in the page title scores 100 (120 at its start), in the
 * section heading 30, in the description 15, in the body 5 plus its count up to 10. The box
 * keeps only pages matching every term; a question rarely has every word in one section, so here
 * sections matching more terms come first and, among those, the higher score: whenever some
 * section matches every term, the top of the list is what the box would rank.
 */
export function rankSections(chunks: Iterable<IndexedChunk>, terms: string[]): RankedChunk[] {
  const ranked: RankedChunk[] = [];
  if (terms.length === 0) return ranked;
  for (const entry of chunks) {
    let score = 0;
    let matched = 0;
    for (const t of terms) {
      let s = 0;
      const at = entry.title.indexOf(t);
      if (at >= 0) s += entry.title === t || at === 0 ? 120 : 100;
      if (entry.section.includes(t)) s += 30;
      if (entry.description.includes(t)) s += 15;
      const count = countUpTo(entry.body, t, 10);
      if (count > 0) s += 5 + count;
      if (s > 0) matched++;
      score += s;
    }
    if (matched > 0) ranked.push({ entry, matched, score, share: score / (MAX_TERM_SCORE * terms.length) });
  }
  ranked.sort((a, b) => b.matched - a.matched || b.score - a.score);
  return ranked;
}

/** Occurrences of `term` in `text`, counted up to `cap` (the box's `split(t).length - 1`, capped). */
function countUpTo(text: string, term: string, cap: number): number {
  let n = 0;
  for (let at = text.indexOf(term); at >= 0 && n < cap; at = text.indexOf(term, at + term.length)) n++;
  return n;
}
