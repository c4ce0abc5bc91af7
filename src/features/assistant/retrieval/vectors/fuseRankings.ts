/**
 * Reciprocal rank fusion's damping constant: the usual 60, so that the top few places of either
 * list matter but no single list's first place outweighs agreement between both.
 */
export const RRF_K = 60;

/**
 * Fuses two rankings (section ids, best first) by reciprocal rank fusion: each id scores
 * Σ 1/(K + place) over the lists it is in. Chosen over mixing raw scores because keyword
 * scores and cosines live on unrelated scales; ranks need no calibration. `share` is the score
 * over the best possible (first in both lists), so it stays 0–1 like the keyword share.
 */
export function fuseRankings(keyword: number[], vector: number[]): { id: number; share: number }[] {
  const scores = new Map<number, number>();
  for (const list of [keyword, vector]) {
    list.forEach((id, place) => {
      scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + place + 1));
    });
  }
  const best = 2 / (RRF_K + 1);
  return [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id, score]) => ({ id, share: score / best }));
}
