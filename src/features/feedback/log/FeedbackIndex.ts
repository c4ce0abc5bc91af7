// size: one columnar index: its columns, order and summaries are private state every method keeps in step
import { BLOCK_ROWS, FacetBlockMasks } from './FacetBlockMasks.js';
import { growableColumn, growColumn, type ColumnType } from './growableColumn.js';
import {
  type CountedSources,
  emptyPathCounts,
  PathFacetCounts,
  type PathCounts,
  type SummarisedColumns,
  tallyFacet,
} from './PathFacetCounts.js';
import { facetHelpful, facetOf, facetSource, facetStatus, wantedFacets, withStatus } from './rowFacets.js';
import { TextInterner } from '../../../platform/TextInterner.js';

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
  /** The site's number (siteId); 0 (or absent) for entries recorded before sites were told apart. */
  site?: number;
}

/** Which rows a query wants; absent bounds are open. */
export interface IndexFilter {
  fromMs?: number;
  toMs?: number;
  /** Source code, or undefined for any. */
  source?: number;
  /** Bit n set = status code n wanted; undefined for any. */
  statusMask?: number;
  /** Site number (siteId), or undefined for every site. */
  site?: number;
}

interface Columns {
  createdAt: Float64Array;
  idHi: Uint32Array;
  idLo: Uint32Array;
  segment: Uint16Array;
  offset: Float64Array;
  length: Uint32Array;
  path: Uint32Array;
  /** Site number: few sites, so two bytes (siteId). */
  site: Uint16Array;
  /** Source, status and rating packed (rowFacets). */
  facets: Uint8Array;
}
type ColumnName = keyof Columns;
type Column = Columns[ColumnName];

const COLUMN_TYPES: { [K in ColumnName]: ColumnType<Columns[K]> } = {
  createdAt: Float64Array,
  idHi: Uint32Array,
  idLo: Uint32Array,
  segment: Uint16Array,
  offset: Float64Array,
  length: Uint32Array,
  path: Uint32Array,
  site: Uint16Array,
  facets: Uint8Array,
};
const COLUMN_NAMES = Object.keys(COLUMN_TYPES) as ColumnName[];

/**
 * The in-memory index of one project's feedback: parallel typed arrays (37 bytes an entry,
 * a small fraction of what JS objects cost, and nothing for the garbage collector to trace)
 * kept sorted by `(createdAt, id)`. Full entries stay on disk and
 * are read by offset for the page shown. Two summaries ride along so no request walks all
 * rows: per-page counts with checkpoints (by-page) and per-block facet masks (filters).
 */
export class FeedbackIndex {
  private capacity = 0;
  private rows = 0;
  private sorted = true;
  /** False after bulk pushes, until sort() recomputes the summaries. */
  private summarised = true;
  private readonly columns = {} as Columns;
  private readonly counts = new PathFacetCounts();
  private readonly blocks = new FacetBlockMasks();
  /** Page paths are few and repeat a lot, so rows store a number into this table. */
  private readonly paths = new TextInterner();
  /** Sites likewise; number 0 stands for "no site recorded". */
  private readonly sites = new TextInterner();

  constructor(initialCapacity = 1024) {
    this.grow(initialCapacity);
  }

  /** Number of entries. */
  get size(): number {
    return this.rows;
  }

  /** The number standing for `path` in rows (added on first use). */
  pathId(path: string): number {
    return this.paths.idOf(path);
  }

  /** The number standing for a site's domain (added on first use); 0 when none is recorded. */
  siteId(domain: string | undefined): number {
    return domain === undefined ? 0 : this.sites.idOf(domain.toLowerCase()) + 1;
  }

  /** The number of a site already seen, or -1: a filter on a site with no feedback matches nothing. */
  knownSiteId(domain: string): number {
    const wanted = domain.toLowerCase();
    for (let id = 0; id < this.sites.size; id++) if (this.sites.textOf(id) === wanted) return id + 1;
    return -1;
  }

  /** The path a row's number stands for. */
  pathOf(id: number): string {
    return this.paths.textOf(id);
  }

  /** Appends without keeping order or summaries (bulk load); call `sort()` afterwards. */
  push(row: IndexRow): number {
    this.summarised = false;
    return this.append(row);
  }

  /** Inserts keeping order and summaries; entries mostly arrive newest-last, so this is usually an append. */
  insert(row: IndexRow): void {
    const at = this.lowerBound(row.createdAt, row.idHi, row.idLo);
    if (at === this.rows) {
      this.append(row);
      if (this.summarised) {
        this.counts.appended(this.summarisedColumns());
        this.blocks.mark(at, this.columns.facets[at]);
      }
      return;
    }
    if (this.rows === this.capacity) this.grow(this.capacity * 2);
    for (const name of COLUMN_NAMES) this.column(name).copyWithin(at + 1, at, this.rows);
    this.rows += 1;
    this.write(at, row);
    if (this.summarised) {
      const cols = this.summarisedColumns();
      this.counts.inserted(cols, at);
      this.blocks.mark(at, this.columns.facets[at]);
      this.blocks.shifted(cols, at);
    }
  }

  /** Restores `(createdAt, id)` order and recomputes the summaries after bulk loading. */
  sort(): void {
    if (!this.sorted) {
      const order = new Uint32Array(this.rows);
      for (let i = 0; i < this.rows; i++) order[i] = i;
      const { createdAt, idHi, idLo } = this.columns;
      order.sort((a, b) => createdAt[a] - createdAt[b] || idHi[a] - idHi[b] || idLo[a] - idLo[b]);
      for (const name of COLUMN_NAMES) {
        const from = this.column(name);
        const to: Column = growableColumn<Column>(COLUMN_TYPES[name], this.capacity);
        for (let i = 0; i < this.rows; i++) to[i] = from[order[i]];
        (this.columns as Record<ColumnName, Column>)[name] = to;
      }
      this.sorted = true;
    }
    if (!this.summarised) this.summarise();
  }

  /** The row at position `at` (positions change when rows are inserted; don't keep them). */
  rowAt(at: number): IndexRow {
    const c = this.columns;
    const facet = c.facets[at];
    return {
      createdAt: c.createdAt[at],
      idHi: c.idHi[at],
      idLo: c.idLo[at],
      segment: c.segment[at],
      offset: c.offset[at],
      length: c.length[at],
      source: facetSource(facet),
      status: facetStatus(facet),
      helpful: facetHelpful(facet),
      path: c.path[at],
      site: c.site[at],
    };
  }

  /** Position of the entry with this id, or -1. A linear scan of two typed arrays: cheap enough for a status change. */
  find(idHi: number, idLo: number): number {
    const { idHi: hi, idLo: lo } = this.columns;
    for (let i = this.rows - 1; i >= 0; i--) if (hi[i] === idHi && lo[i] === idLo) return i;
    return -1;
  }

  /** Sets the status code of the row at `at`. */
  setStatus(at: number, status: number): void {
    const from = this.columns.facets[at];
    const to = withStatus(from, status);
    if (to === from) return;
    this.columns.facets[at] = to;
    if (this.summarised) {
      this.counts.changed(at, this.columns.path[at], from, to);
      this.blocks.mark(at, to);
    }
  }

  /**
   * Sets the status of rows from `from` on that `statusOf` names (a loaded segment's status
   * records), reading ids straight from the columns: no row object or id text per row.
   */
  applyStatuses(from: number, statusOf: (idHi: number, idLo: number) => number | undefined): void {
    const { idHi, idLo } = this.columns;
    for (let at = from; at < this.rows; at++) {
      const status = statusOf(idHi[at], idLo[at]);
      if (status !== undefined) this.setStatus(at, status);
    }
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
   * date range and the cursor are binary searches; source/status filters test one byte per
   * row and skip whole blocks whose mask rules them out.
   */
  select(filter: IndexFilter, before: { createdAt: number; idHi: number; idLo: number } | null, limit: number): IndexRow[] {
    const [lo, rangeEnd] = this.range(filter);
    const hi = before ? Math.min(rangeEnd, this.lowerBound(before.createdAt, before.idHi, before.idLo)) : rangeEnd;
    const { table, pairMask } = wantedFacets(filter.source, filter.statusMask);
    const { facets, site: sites } = this.columns;
    const site = filter.site;
    const out: IndexRow[] = [];
    let i = hi - 1;
    while (i >= lo && out.length < limit) {
      const blockStart = i - (i % BLOCK_ROWS);
      if (!this.blocks.mayHold(i, pairMask)) {
        i = blockStart - 1;
        continue;
      }
      for (const stop = Math.max(lo, blockStart); i >= stop && out.length < limit; i--)
        if (table[facets[i]] === 1 && (site === undefined || sites[i] === site)) out.push(this.rowAt(i));
    }
    return out;
  }

  /**
   * Rows matching `filter` per UTC day (epoch day number) and source index, oldest day first.
   * Walks the rows of the date range (one byte test each), so its cost grows with the range.
   */
  countByDay(filter: IndexFilter, dayMs: number, sources: number): { day: number; bySource: Uint32Array }[] {
    const [lo, hi] = this.range(filter);
    const { table } = wantedFacets(filter.source, filter.statusMask);
    const { createdAt, facets, site: sites } = this.columns;
    const site = filter.site;
    const out: { day: number; bySource: Uint32Array }[] = [];
    let current: { day: number; bySource: Uint32Array } | null = null;
    for (let i = lo; i < hi; i++) {
      if (table[facets[i]] !== 1 || (site !== undefined && sites[i] !== site)) continue;
      const day = Math.floor(createdAt[i] / dayMs);
      // Rows are sorted by time, so each day is one run.
      if (!current || current.day !== day) out.push((current = { day, bySource: new Uint32Array(sources) }));
      current.bySource[facetSource(facets[i])]++;
    }
    return out;
  }

  /**
   * Per-path counts of the rows matching `filter`: totals, thumbs up and down (ratings of
   * `sources.rating`), and rows from `sources.code`. Taken from the checkpointed counts, so
   * the cost is the number of pages, not of rows.
   */
  countByPath(filter: IndexFilter, sources: CountedSources): PathCounts {
    const [lo, hi] = this.range(filter);
    if (filter.site !== undefined)
      return this.countSiteByPath(filter.site, lo, hi, wantedFacets(filter.source, filter.statusMask).table, sources);
    return this.counts.byPath(this.summarisedColumns(), lo, hi, wantedFacets(filter.source, filter.statusMask).table, sources);
  }

  /**
   * countByPath for one site: the checkpointed counts don't tell sites apart, so this walks the
   * rows of the date range (one site and one facet test each), like countByDay.
   */
  private countSiteByPath(site: number, lo: number, hi: number, wanted: Uint8Array, sources: CountedSources): PathCounts {
    const counts = emptyPathCounts(this.paths.size);
    const { facets, path, site: sites } = this.columns;
    for (let i = lo; i < hi; i++) {
      const facet = facets[i];
      if (sites[i] === site && wanted[facet] === 1) tallyFacet(counts, path[i], facet, 1, sources);
    }
    return counts;
  }

  /** Removes every row stored in one of `segments` (retention); returns how many went. */
  removeSegments(segments: ReadonlySet<number>): number {
    const seg = this.columns.segment;
    let kept = 0;
    for (let i = 0; i < this.rows; i++) {
      if (segments.has(seg[i])) continue;
      if (kept !== i) for (const name of COLUMN_NAMES) this.column(name)[kept] = this.column(name)[i];
      kept += 1;
    }
    const removed = this.rows - kept;
    this.rows = kept;
    if (removed > 0 && this.summarised) this.summarise();
    return removed;
  }

  private summarise(): void {
    const cols = this.summarisedColumns();
    this.counts.rebuild(cols, this.paths.size);
    this.blocks.rebuild(cols);
    this.summarised = true;
  }

  private summarisedColumns(): SummarisedColumns {
    return { rows: this.rows, path: this.columns.path, facets: this.columns.facets };
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

  private append(row: IndexRow): number {
    if (this.rows === this.capacity) this.grow(this.capacity * 2);
    const at = this.rows++;
    this.write(at, row);
    if (at > 0 && this.compareAt(at - 1, row.createdAt, row.idHi, row.idLo) > 0) this.sorted = false;
    return at;
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
    c.path[at] = row.path;
    c.site[at] = row.site ?? 0;
    c.facets[at] = facetOf(row.source, row.status, row.helpful);
  }

  private column(name: ColumnName): Column {
    return this.columns[name];
  }

  /** Makes room for `capacity` rows in place (growableColumn): no row is copied. */
  private grow(capacity: number): void {
    for (const name of COLUMN_NAMES) {
      const column = this.column(name) as Column | undefined;
      if (column) growColumn(column, capacity);
      else (this.columns as Record<ColumnName, Column>)[name] = growableColumn<Column>(COLUMN_TYPES[name], capacity);
    }
    this.capacity = capacity;
  }
}
