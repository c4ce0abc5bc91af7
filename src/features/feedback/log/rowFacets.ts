/**
 * The three small fields filters and per-page counts look at — source (4 values), status (4)
 * and rating (helpful / not helpful / none) — packed into one number below FACET_COUNT. One
 * byte per index row instead of three, and a filter becomes one table lookup per row.
 */
export const FACET_COUNT = 4 * 4 * 3;

/** Packs source code, status code and rating (1 helpful, 0 not helpful, -1 none). */
export function facetOf(source: number, status: number, helpful: number): number {
  return (source * 4 + status) * 3 + helpful + 1;
}

/** Source code of a facet. */
export function facetSource(facet: number): number {
  return Math.floor(facet / 12);
}

/** Status code of a facet. */
export function facetStatus(facet: number): number {
  return Math.floor(facet / 3) % 4;
}

/** Rating of a facet: 1 helpful, 0 not helpful, -1 none. */
export function facetHelpful(facet: number): number {
  return (facet % 3) - 1;
}

/** The same facet with another status (a triage change). */
export function withStatus(facet: number, status: number): number {
  return facetOf(facetSource(facet), status, facetHelpful(facet));
}

/**
 * Bit of a facet's (source, status) pair in a 16-bit mask. Block summaries use these: the
 * rating is never filtered on, so 16 bits say everything a filter needs to skip a block.
 */
export function facetPairBit(facet: number): number {
  return 1 << Math.floor(facet / 3);
}

/** Which facets a filter keeps: source code or undefined for any, status bit mask or undefined for any. */
export function wantedFacets(source: number | undefined, statusMask: number | undefined): { table: Uint8Array; pairMask: number } {
  const table = new Uint8Array(FACET_COUNT);
  let pairMask = 0;
  for (let facet = 0; facet < FACET_COUNT; facet++) {
    if (source !== undefined && facetSource(facet) !== source) continue;
    if (statusMask !== undefined && ((1 << facetStatus(facet)) & statusMask) === 0) continue;
    table[facet] = 1;
    pairMask |= facetPairBit(facet);
  }
  return { table, pairMask };
}
