/**
 * The last `capacity` entry records read from the segments, by where their line is. Listing
 * asks for the same lines again and again (the newest page, a page a dashboard keeps open),
 * and each miss costs a trip through the thread pool plus a JSON.parse per line; a hit costs
 * neither. Lines are immutable once indexed (status lives in the index, a failed append is
 * never indexed), so an entry can't go stale; only retention must forget a dropped segment.
 */
export class RecentRecords<T> {
  // A Map iterates in insertion order, so re-inserting on each hit makes the first key the least recent.
  private readonly items = new Map<number, T>();

  constructor(private readonly capacity: number) {}

  /** Number of records held. */
  get size(): number {
    return this.items.size;
  }

  /** The record of the line at `offset` in `segment`, if held (it becomes the most recent). */
  get(segment: number, offset: number): T | undefined {
    const key = lineKey(segment, offset);
    const record = this.items.get(key);
    if (record !== undefined) {
      this.items.delete(key);
      this.items.set(key, record);
    }
    return record;
  }

  /** Holds `record` for that line, forgetting the least recent one when full. */
  set(segment: number, offset: number, record: T): void {
    const key = lineKey(segment, offset);
    this.items.delete(key);
    this.items.set(key, record);
    if (this.items.size > this.capacity) this.items.delete(this.items.keys().next().value!);
  }

  /** Forgets everything (a segment was dropped; rare enough not to sort out which keys were its). */
  clear(): void {
    this.items.clear();
  }
}

/** One number per line: segment ids are below 2^16 and offsets below 2^36 (64 GB), so it stays under 2^53. */
function lineKey(segment: number, offset: number): number {
  return segment * 2 ** 36 + offset;
}
