/** Past this many segments, the small ones are folded into the new one. */
export const MAX_SEGMENTS = 8;

/**
 * Which of the last record's segments the shares record being saved should stop using, copying
 * the regions it still uses from them into this export's segment (`written` bytes so far), so
 * the record's files hold at most about half again what it uses and stay few:
 * - when the dead bytes (regions no page uses any more) of the segments still in use exceed
 *   half the live bytes of the whole record, all of them (a rewrite of every share, as a full
 *   export makes);
 * - else, when there would be more than MAX_SEGMENTS segments, all but the largest (the one
 *   the last compaction or full export wrote; the others are one-edit exports' small ones).
 */
export function segmentsToFold(kept: readonly { region: Buffer; segment: { name: string; size: number } }[], written: number): Set<string> {
  const live = new Map<string, { size: number; used: number }>();
  for (const { region, segment } of kept) {
    const s = live.get(segment.name) ?? { size: segment.size, used: 0 };
    s.used += region.length;
    live.set(segment.name, s);
  }
  let dead = 0;
  let used = written;
  for (const s of live.values()) {
    dead += s.size - s.used;
    used += s.used;
  }
  if (dead > used / 2) return new Set(live.keys());
  if (live.size + 1 <= MAX_SEGMENTS) return new Set();
  const largest = [...live].reduce((a, b) => (b[1].size > a[1].size ? b : a))[0];
  return new Set([...live.keys()].filter((name) => name !== largest));
}
