/**
 * Thrown inside the fast path when the text holds something it does not reproduce exactly;
 * `fastParse` turns it into `null` so the caller falls back to micromark. `reason` is a short
 * stable label, used to measure which constructs are worth implementing next.
 */
export class FastPathBail extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Gives up on the fast path for this page. */
export function bail(reason: string): never {
  throw new FastPathBail(reason);
}
