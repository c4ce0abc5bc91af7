import type { SummarisedColumns } from './PathFacetCounts.js';
import { facetPairBit } from './rowFacets.js';

/** Rows per block; 4,096 blocks cover a million rows in 8 KB. */
export const BLOCK_ROWS = 256;
const BLOCK_SHIFT = 8;

/**
 * Which (source, status) pairs occur in each block of BLOCK_ROWS index rows, as a 16-bit mask.
 * A filtered listing skips blocks whose mask misses the filter, so a rare combination
 * (resolved code snippets, say) no longer scans every row of its date range. Masks may claim
 * more than a block holds (a status changed away, a row shifted out) but never less, which
 * costs a little scanning and never a missed row; rebuilds tighten them.
 */
export class FacetBlockMasks {
  private masks = new Uint16Array(0);

  /** Recomputes every block (after a bulk load, a sort or a removal). */
  rebuild(cols: SummarisedColumns): void {
    this.masks = new Uint16Array(Math.ceil(cols.rows / BLOCK_ROWS) + 1);
    for (let i = 0; i < cols.rows; i++) this.masks[i >> BLOCK_SHIFT] |= facetPairBit(cols.facets[i]);
  }

  /** Notes the facet now at row `at` (a new row, or a status change). */
  mark(at: number, facet: number): void {
    const block = at >> BLOCK_SHIFT;
    if (block >= this.masks.length) {
      const next = new Uint16Array(Math.max(block + 1, this.masks.length * 2));
      next.set(this.masks);
      this.masks = next;
    }
    this.masks[block] |= facetPairBit(facet);
  }

  /** After a row was inserted at `at`: each later block took in the row shifted across its start. */
  shifted(cols: SummarisedColumns, at: number): void {
    const last = (cols.rows - 1) >> BLOCK_SHIFT;
    for (let block = (at >> BLOCK_SHIFT) + 1; block <= last; block++) this.mark(block << BLOCK_SHIFT, cols.facets[block << BLOCK_SHIFT]);
  }

  /** True when the block holding row `at` may contain one of the pairs in `pairMask`. */
  mayHold(at: number, pairMask: number): boolean {
    return (this.masks[at >> BLOCK_SHIFT] & pairMask) !== 0;
  }
}
