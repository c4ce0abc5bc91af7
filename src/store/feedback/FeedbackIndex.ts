/** One entry as the index knows it: sort key, where its line is, and the fields filters need. */
export interface IndexRow {
  createdAt: number;
  /** The 16 hex digits of the id as two 32-bit halves; they compare like the hex text. */
  idHi: number;
  idLo: number;
  segment: number;
  offset: number;
  length: number;
  source: number;
  status: number;
  /** 1 helpful, 0 not helpful, -1 no rating. */
  helpful: number;
  path: number;
}

/** Which rows a query wants; absent bounds are open. */
export interface IndexFilter {
  fromMs?: number;
  toMs?: number;
  /** Source code, or undefined for any. */
  source?: number;
  /** Bit n set = status code n wanted; undefined for any. */
  statusMask?: number;
}

type Column = Float64Array | Uint32Array | Uint16Array | Uint8Array | Int8Array;
type ColumnName = keyof IndexRow;

const COLUMN_TYPES: Record<ColumnName, new (n: number) => Column> = {
  createdAt: Float64Array,
  idHi: Uint32Array,
  idLo: Uint32Array,
  segment: Uint16Array,
  offset: Float64Array,
  length: Uint32Array,
  source: Uint8Array,
  status: Uint8Array,
  helpful: Int8Array,
  path: Uint32Array,
};
const COLUMN_NAMES = Object.keys(COLUMN_TYPES) as ColumnName[];

/**
 * The in-memory index of one project's feedback: parallel typed arrays (about 37 bytes an
 * entry, so a million entries cost ~40 MB instead of the ~500 MB of JS objects) kept sorted
 * by `(createdAt, id)`. Full entries stay on disk and are read by offset for the page shown.
 */
export class FeedbackIndex {
  private capacity = 0;
  private rows = 0;
  private sorted = true;
  private readonly columns = {} as Record<ColumnName, Column>;
  /** Page paths are few and repeat a lot, so rows store a number into this table. */
  private readonly pathTable: string[] = [];
  private readonly pathIds = new Map<string, number>();

  constructor(initialCapacity = 1024) {
    this.grow(initialCapacity);
  }

  /** Number of entries. */
  get size(): number {
    return this.rows;
  }

  /** The number standing for `path` in rows (added on first use). */
  pathId(path: string): number {
    let id = this.pathIds.get(path);
    if (id === undefined) {
      id = this.pathTable.length;
      this.pathTable.push(path);
      this.pathIds.set(path, id);
    }
    return id;
  }

  /** The path a row's number stands for. */
  pathOf(id: number): string {
    return this.pathTable[id];
  }

  /** Appends without keeping order (bulk load); call `sort()` afterwards. */
  push(row: IndexRow): number {
    if (this.rows === this.capacity) this.grow(this.capacity * 2);
    const at = this.rows++;
    this.write(at, row);
    if (at > 0 && this.compareAt(at - 1, row.createdAt, row.idHi, row.idLo) > 0) this.sorted = false;
    return at;
  }

  /** Inserts keeping order; entries mostly arrive newest-last, so this is usually an append. */
  insert(row: IndexRow): void {
    const at = this.lowerBound(row.createdAt, row.idHi, row.idLo);
    if (at === this.rows) {
      this.push(row);
      return;
    }
    if (this.rows === this.capacity) this.grow(this.capacity * 2);
    for (const name of COLUMN_NAMES) this.columns[name].copyWithin(at + 1, at, this.rows);
    this.rows += 1;
    this.write(at, row);
  }

  /** Restores `(createdAt, id)` order after bulk loading. */
  sort(): void {
    if (this.sorted) return;
    const order = new Uint32Array(this.rows);
    for (let i = 0; i < this.rows; i++) order[i] = i;
    const { createdAt, idHi, idLo } = this.columns;
    order.sort((a, b) => createdAt[a] - createdAt[b] || idHi[a] - idHi[b] || idLo[a] - idLo[b]);
    for (const name of COLUMN_NAMES) {
      const from = this.columns[name];
      const to = new COLUMN_TYPES[name](this.capacity);
      for (let i = 0; i < this.rows; i++) to[i] = from[order[i]];
      this.columns[name] = to;
    }
    this.sorted = true;
  }

  /** The row at position `at` (positions change when rows are inserted; don't keep them). */
  rowAt(at: number): IndexRow {
    const c = this.columns;
    return {
      createdAt: c.createdAt[at], idHi: c.idHi[at], idLo: c.idLo[at], segment: c.segment[at], offset: c.offset[at],
      length: c.length[at], source: c.source[at], status: c.status[at], helpful: c.helpful[at], path: c.path[at],
    };
  }

  /** Position of the entry with this id, or -1. A linear scan of two typed arrays: ~1 ms per million. */
  find(idHi: number, idLo: number): number {
    const { idHi: hi, idLo: lo } = this.columns;
    for (let i = this.rows - 1; i >= 0; i--) if (hi[i] === idHi && lo[i] === idLo) return i;
    return -1;
  }

  /** Sets the status code of the row at `at`. */
  setStatus(at: number, status: number): void {
    this.columns.status[at] = status;
  }

  /** First position whose key is ≥ `(createdAt, idHi, idLo)`. */
  lowerBound(createdAt: number, idHi: number, idLo: number): number {
    let lo = 0;
    let hi = this.rows;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compareAt(mid, createdAt, idHi, idLo) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Up to `limit` matching rows, newest first, strictly older than `before` when given. The
   * date range is two binary searches; source/status filters scan only inside it.
   */
  select(filter: IndexFilter, before: { createdAt: number; idHi: number; idLo: number } | null, limit: number): IndexRow[] {
    const [lo, rangeEnd] = this.range(filter);
    const hi = before ? Math.min(rangeEnd, this.lowerBound(before.createdAt, before.idHi, before.idLo)) : rangeEnd;
    const { source, status } = this.columns;
    const out: IndexRow[] = [];
    for (let i = hi - 1; i >= lo && out.length < limit; i--) {
      if (filter.source !== undefined && source[i] !== filter.source) continue;
      if (filter.statusMask !== undefined && ((1 << status[i]) & filter.statusMask) === 0) continue;
      out.push(this.rowAt(i));
    }
    return out;
  }

  /**
   * Per-path counts of the rows matching `filter`: totals, helpful, not helpful, and rows from
   * `codeSource`. One tight loop into typed arrays indexed by path number, with no callback or
   * map per row: a million rows take a few milliseconds of the event loop, not tens.
   */
  countByPath(filter: IndexFilter, codeSource: number): { total: Uint32Array; helpful: Uint32Array; notHelpful: Uint32Array; code: Uint32Array } {
    const paths = this.pathTable.length;
    const counts = { total: new Uint32Array(paths), helpful: new Uint32Array(paths), notHelpful: new Uint32Array(paths), code: new Uint32Array(paths) };
    const [lo, hi] = this.range(filter);
    const { source, status, path, helpful } = this.columns;
    const wantSource = filter.source ?? -1;
    const mask = filter.statusMask ?? -1;
    for (let i = lo; i < hi; i++) {
      if (wantSource !== -1 && source[i] !== wantSource) continue;
      if (mask !== -1 && ((1 << status[i]) & mask) === 0) continue;
      const p = path[i];
      counts.total[p]++;
      if (helpful[i] === 1) counts.helpful[p]++;
      else if (helpful[i] === 0) counts.notHelpful[p]++;
      if (source[i] === codeSource) counts.code[p]++;
    }
    return counts;
  }

  /** Removes every row stored in one of `segments` (retention); returns how many went. */
  removeSegments(segments: ReadonlySet<number>): number {
    const seg = this.columns.segment;
    let kept = 0;
    for (let i = 0; i < this.rows; i++) {
      if (segments.has(seg[i])) continue;
      if (kept !== i) for (const name of COLUMN_NAMES) this.columns[name][kept] = this.columns[name][i];
      kept += 1;
    }
    const removed = this.rows - kept;
    this.rows = kept;
    return removed;
  }

  private range(filter: IndexFilter): [number, number] {
    const lo = filter.fromMs === undefined ? 0 : this.lowerBound(filter.fromMs, 0, 0);
    const hi = filter.toMs === undefined ? this.rows : this.lowerBound(filter.toMs, 0, 0);
    return [lo, Math.max(lo, hi)];
  }

  private compareAt(at: number, createdAt: number, idHi: number, idLo: number): number {
    const c = this.columns;
    return c.createdAt[at] - createdAt || c.idHi[at] - idHi || c.idLo[at] - idLo;
  }

  private write(at: number, row: IndexRow): void {
    // Spelled out: a loop over column names is several times slower on the bulk-load path.
    const c = this.columns;
    c.createdAt[at] = row.createdAt;
    c.idHi[at] = row.idHi;
    c.idLo[at] = row.idLo;
    c.segment[at] = row.segment;
    c.offset[at] = row.offset;
    c.length[at] = row.length;
    c.source[at] = row.source;
    c.status[at] = row.status;
    c.helpful[at] = row.helpful;
    c.path[at] = row.path;
  }

  private grow(capacity: number): void {
    for (const name of COLUMN_NAMES) {
      const next = new COLUMN_TYPES[name](capacity);
      const prev = this.columns[name];
      if (prev) next.set(prev.subarray(0, this.rows));
      this.columns[name] = next;
    }
    this.capacity = capacity;
  }
}
